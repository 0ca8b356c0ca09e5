// POST /api/ops (push): a batch of operations, applied in order, each at most once (db/ops/apply.ts);
// one answer per operation, always, even when one of them fails unexpectedly (that one is answered
// `failed`, and the device sends it again later or sets it aside). A database away for a moment (the
// pooler or the primary restarting) makes the push wait: each step is tried again for a while
// (lib/reachable.ts; an operation run twice answers `duplicate`). Only a database away for longer
// fails the whole request (503): the device resends it, and operations already applied answer `duplicate`.
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../../src/shared/errors';
import { pushRequestSchema, type PushRequest, type ServerOpResult } from '../../../src/shared/protocol';
import { changeHead } from '../../db/sync/changes';
import { applyOp } from '../../db/ops/apply';
import type { ServerContext } from '../../context';
import { databaseUnavailable } from '../../plugins/errors';
import { memberOf } from '../../plugins/session';
import { requestTakes, takeAllForRequest } from '../../lib/limits';
import { HttpError } from '../../lib/http-error';

/** A push of more operations than this runs them as background work (db/storage/adapter.ts, Priority). */
const BULK_PUSH = 10;

export default async function pushRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/ops', { bodyLimit: 1024 * 1024, schema: { body: pushRequestSchema } }, async (request) => {
    const member = memberOf(request);
    const { ops } = request.body as PushRequest;
    // A flood is answered as a whole, before anything is applied: 429 with when to try again. A
    // push of one operation takes these limits with it (a like's group commit takes them with the
    // like: no commit of their own); a longer one takes them first. Each step waits through a
    // database away for a moment (ctx.patiently).
    const patiently = ctx.patiently(request);
    const limits = await patiently(() => ctx.memberLimits.current());
    const flood = await patiently(() =>
      requestTakes(ctx.db, limits, member, [
        ['pushes_per_10_seconds', 1],
        ['operations_per_minute', ops.length],
      ]),
    );
    const alone = ops.length === 1;
    if (!alone) await patiently(() => takeAllForRequest(ctx.db, flood));
    const results: ServerOpResult[] = [];
    // A change number at or past every change the push made: each applied op's own, and the head
    // this instance has heard of; a duplicate's is not known here, so then the database's head.
    let cursor = ctx.hub.cursor;
    let duplicates = false;
    // A long push (a device's queue after a day offline, a script) is unhurried work: each of its
    // operations lets a waiting like or sign-in go first on the embedded engine.
    const priority = { background: ops.length > BULK_PUSH };
    for (const op of ops) {
      try {
        const { result, seq } = await patiently(() =>
          applyOp(ctx.db, member, op, request.protocolVersion, limits, priority, alone ? flood : []),
        );
        results.push(result);
        if (seq !== null) cursor = Math.max(cursor, seq);
        if (result.status === 'duplicate') duplicates = true;
      } catch (error) {
        // The push over its own limits (429), or the database unreachable (503): the whole push is answered so.
        if (databaseUnavailable(error) || error instanceof HttpError) throw error;
        // The adapters' DatabaseError carries no parameters, and the logger redacts them too.
        request.log.error({ err: error, op: op.type }, 'an operation failed');
        results.push({ id: op.id, status: 'failed', code: 'server_error', reason: ERRORS.server_error.message });
      }
    }
    if (duplicates) cursor = Math.max(cursor, await patiently(() => changeHead(ctx.db)));
    return { results, cursor };
  });
}
