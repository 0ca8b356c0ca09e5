// POST /api/ops (push): a batch of operations, applied in order, each at most once; one answer
// per operation, always, even when one of them fails unexpectedly (that one is answered `failed`,
// and the device sends it again later or sets it aside). Only an unreachable database fails the
// whole request (503): the device resends it, and operations already applied answer `duplicate`.
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../../src/shared/errors';
import { pushRequestSchema, type ServerOpResult, type PushRequest } from '../../../src/shared/protocol';
import { changeHead } from '../../db/changes';
import { applyOp } from '../../db/ops';
import type { ServerContext } from '../../context';
import { databaseUnavailable } from '../../plugins/errors';
import { memberOf } from '../../plugins/session';

/**
 * A change number at or past every change the push made: when each result carries its post or its
 * flag (the operations of posts and replies, and a flag, do), the newest of their seqs (and their
 * replies') and the head this instance has heard of, without a query; otherwise (dismissFlags,
 * readNotifications, a deletion) the database's head.
 */
async function pushCursor(ctx: ServerContext, results: ServerOpResult[]): Promise<number> {
  let newest = ctx.hub.cursor;
  for (const result of results) {
    if (result.status === 'refused' || result.status === 'failed') continue;
    if (!result.post && !result.flag) return changeHead(ctx.db);
    newest = Math.max(newest, result.post?.seq ?? 0, result.reply?.seq ?? 0, result.flag?.seq ?? 0);
  }
  return newest;
}

export default async function pushRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/ops', { bodyLimit: 1024 * 1024, schema: { body: pushRequestSchema } }, async (request) => {
    const member = memberOf(request);
    const { ops } = request.body as PushRequest;
    const results: ServerOpResult[] = [];
    for (const op of ops) {
      try {
        results.push(await applyOp(ctx.db, member, op));
      } catch (error) {
        if (databaseUnavailable(error)) throw error;
        // The adapters' DatabaseError carries no parameters, and the logger redacts them too.
        request.log.error({ err: error, op: op.type }, 'an operation failed');
        results.push({ id: op.id, status: 'failed', code: 'server_error', reason: ERRORS.server_error.message });
      }
    }
    return { results, cursor: await pushCursor(ctx, results) };
  });
}
