// GET /api/members/:id (protocol version 5): a member's page (db/members.ts) for a signed-in
// member; a malformed id is 400 invalid, an id no member has (or one with nothing on the forum) 404 member_not_found.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { memberParamsSchema } from '../../../src/shared/protocol';
import { memberProfile } from '../../db/members/members';
import { memberOf } from '../../plugins/session';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';

/** The sentence of an id that is not one. */
export const BAD_MEMBER_ID_MESSAGE = 'A member’s id is 16 hexadecimal digits (0–9, a–f).';

export default async function membersRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
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
