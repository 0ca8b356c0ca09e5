// GET /api/members/:id (protocol version 5): a member's page (db/members.ts) for a signed-in
// member; a malformed id is 400 invalid, an id no member has (or one with nothing on the forum) 404 member_not_found.
// GET /api/members?q= (issue 42): the members whose name (or a word of it) starts with `q`, for the
// editor's @ mentions: at most MENTION_SUGGESTIONS, their public id and name (never an email), under
// the searches_per_minute limit. Every member others may find (findableMember, issue 59): a confirmed
// member who has not written yet too, so a new colleague can be mentioned; never a closed or
// suspended account, nor an address that was never confirmed.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { memberParamsSchema } from '../../../src/shared/protocol';
import { findableMember, memberProfile } from '../../db/members/members';
import { memberOf } from '../../plugins/session';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { takeForRequest } from '../../lib/limits';
import { hasUnstorableText } from '../../../src/shared/text-checks';

/** The sentence of an id that is not one. */
export const BAD_MEMBER_ID_MESSAGE = 'A member’s id is 16 hexadecimal digits (0–9, a–f).';

/** The sentence of a mention search without a name to look for. */
export const BAD_MEMBER_QUERY_MESSAGE = 'Type 1 to 100 characters of a member’s name.';
/** How many members a mention search answers. */
export const MENTION_SUGGESTIONS = 8;

/** `text` as a LIKE pattern's literal part (its wildcards and the escape character escaped). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/gu, (character) => `\\${character}`);

export default async function membersRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/members', async (request, reply) => {
    const q = (request.query as { q?: unknown }).q;
    const text = typeof q === 'string' ? q.trim().toLocaleLowerCase('en-US') : '';
    if (text.length === 0 || text.length > 100 || hasUnstorableText(text)) throw refuse('invalid', BAD_MEMBER_QUERY_MESSAGE);
    const member = memberOf(request);
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'searches_per_minute', member);
    const pattern = likeLiteral(text);
    const rows = await ctx.db.query<{ member_id: string; name: string }>(
      `SELECT member_id, name FROM users
       WHERE ${findableMember('$3')}
         AND (lower(name) LIKE $1 || '%' ESCAPE '\\' OR lower(name) LIKE '% ' || $1 || '%' ESCAPE '\\')
       ORDER BY lower(name) LIKE $1 || '%' ESCAPE '\\' DESC, lower(name) LIMIT $2`,
      [pattern, MENTION_SUGGESTIONS, Date.now()],
    );
    reply.header('cache-control', 'no-store');
    return { members: rows.map((row) => ({ id: String(row.member_id), name: String(row.name) })) };
  });

  app.get('/api/members/:id', async (request, reply) => {
    const params = memberParamsSchema.safeParse(request.params);
    if (!params.success) throw refuse('invalid', BAD_MEMBER_ID_MESSAGE);
    const { id } = params.data as z.infer<typeof memberParamsSchema>;
    const profile = await memberProfile(ctx.db, id, memberOf(request).id);
    if (!profile) throw refuse('member_not_found');
    reply.header('cache-control', 'no-store');
    return profile;
  });
}
