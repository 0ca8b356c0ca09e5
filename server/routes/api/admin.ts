// The admins' reads and settings of protocol 6 (a member gets 403 admins_only; no session, 401):
// GET /api/admin/members?q= (find a member by name or email), GET /api/admin/members/:id (their
// recent posts, replies and flags), GET /api/admin/log?before= (the staff log, newest first), and
// GET / PUT /api/admin/limits (a member's limits, several saved at once; each change is written to
// the staff log). What the admin does to a member (Suspend, Silence, Delete spammer) is an operation
// like any other (push).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  adminMembersQuerySchema,
  memberParamsSchema,
  messageFlagParamsSchema,
  setLimitRequestSchema,
  staffLogQuerySchema,
} from '../../../src/shared/protocol';
import { listMessageFlags, openFlaggedConversation } from '../../db/messages/flags';
import { findMembers, memberDetail } from '../../db/staff/members-admin';
import { readStaffLog, writeStaffEntry } from '../../db/staff/staff-log';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { DEFAULT_LIMITS, LIMIT_NAMES, type LimitName } from '../../lib/limits';
import { memberOf } from '../../plugins/session';
import { BAD_MEMBER_ID_MESSAGE } from './members';

/** The admin of this request (403 admins_only for anyone else). */
function adminOf(request: FastifyRequest) {
  const user = memberOf(request);
  if (user.role !== 'admin') throw refuse('admins_only');
  return user;
}

/** The sentence of a limit the server does not have. */
export const UNKNOWN_LIMIT_MESSAGE = `Choose one of the limits: ${LIMIT_NAMES.join(', ')}.`;

export default async function adminRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/admin/members', { schema: { querystring: adminMembersQuerySchema } }, async (request, reply) => {
    adminOf(request);
    const { q } = request.query as z.infer<typeof adminMembersQuerySchema>;
    reply.header('cache-control', 'no-store');
    return { members: await findMembers(ctx.db, q) };
  });

  app.get('/api/admin/members/:id', async (request, reply) => {
    adminOf(request);
    const params = memberParamsSchema.safeParse(request.params);
    if (!params.success) throw refuse('invalid', BAD_MEMBER_ID_MESSAGE);
    const detail = await memberDetail(ctx.db, params.data.id);
    if (!detail) throw refuse('member_not_found');
    reply.header('cache-control', 'no-store');
    return detail;
  });

  // Issue 61: the open flags of messages (who, why, when), and one flag's conversation, whose opening
  // is written to the staff log. Admins read no other conversation.
  app.get('/api/admin/message-flags', async (request, reply) => {
    adminOf(request);
    reply.header('cache-control', 'no-store');
    return { flags: await listMessageFlags(ctx.db) };
  });

  app.get('/api/admin/message-flags/:id', async (request, reply) => {
    const admin = adminOf(request);
    const params = messageFlagParamsSchema.safeParse(request.params);
    if (!params.success) throw refuse('conversation_not_found');
    const opened = await openFlaggedConversation(ctx.db, admin, params.data.id);
    if (!opened) throw refuse('conversation_not_found');
    reply.header('cache-control', 'no-store');
    return opened;
  });

  app.get('/api/admin/log', { schema: { querystring: staffLogQuerySchema } }, async (request, reply) => {
    adminOf(request);
    const { before } = request.query as z.infer<typeof staffLogQuerySchema>;
    reply.header('cache-control', 'no-store');
    return readStaffLog(ctx.db, before);
  });

  app.get('/api/admin/limits', async (request, reply) => {
    adminOf(request);
    reply.header('cache-control', 'no-store');
    return { limits: await ctx.memberLimits.current(), defaults: DEFAULT_LIMITS };
  });

  // One limit ({name, rule}) or several ({limits}: the admin's one Save): every name is checked before
  // anything is written, and all are saved in one transaction, so a malformed list saves nothing.
  app.put('/api/admin/limits', { bodyLimit: 8 * 1024, schema: { body: setLimitRequestSchema } }, async (request) => {
    const admin = adminOf(request);
    const changes = Object.entries((request.body as z.infer<typeof setLimitRequestSchema>).limits);
    if (changes.some(([name]) => !(LIMIT_NAMES as string[]).includes(name))) throw refuse('invalid', UNKNOWN_LIMIT_MESSAGE);
    await ctx.db.transaction(async (tx) => {
      for (const [name, rule] of changes) {
        await ctx.memberLimits.set(tx, name as LimitName, rule);
        // One staff log entry per limit changed, as when they were saved one by one.
        await writeStaffEntry(tx, { actorId: admin.id, action: 'setLimit', title: name, detail: { ...rule } });
      }
    });
    return { limits: await ctx.memberLimits.current(), defaults: DEFAULT_LIMITS };
  });
}
