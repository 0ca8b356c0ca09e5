// GET /api/changes (pull): the changes after a cursor that this member may see, in pages, in the
// protocol version the request speaks (a version-1 device gets posts only).
//
// With REPLICA_URL the page is read from the replica when it has replayed at least to the cursor the
// device sends: a replica replays commits in order, and change numbers are given out in commit
// order (the change_head row), so every change up to its head is there and the answer's cursor is
// never below the device's. Otherwise (behind, or not answering) the primary answers. The
// `x-insight-read-from` header says which.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pullQuerySchema } from '../../../src/shared/protocol';
import { changeHead, pullChanges } from '../../db/sync/changes';
import type { Sql } from '../../db/storage/adapter';
import type { ServerContext } from '../../context';
import { memberOf } from '../../plugins/session';

/** The replica when it has replayed to `after`, else undefined (also when it does not answer). */
async function replicaFor(replica: Sql | undefined, after: number): Promise<Sql | undefined> {
  if (!replica) return undefined;
  try {
    return (await changeHead(replica)) >= after ? replica : undefined;
  } catch {
    return undefined;
  }
}

export default async function pullRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/changes', { schema: { querystring: pullQuerySchema } }, async (request, reply) => {
    const { after, limit } = request.query as z.infer<typeof pullQuerySchema>;
    const member = memberOf(request);
    const replica = await replicaFor(ctx.db.replica, after);
    if (replica) {
      try {
        const page = await pullChanges(replica, member, after, limit, request.protocolVersion);
        reply.header('x-insight-read-from', 'replica');
        return page;
      } catch (error) {
        request.log.warn(`pull: the replica failed, the primary answers: ${(error as Error).message}`);
      }
    }
    if (ctx.db.replica) reply.header('x-insight-read-from', 'primary');
    // A page is long, unhurried work: a like or a sign-in waiting for the embedded engine goes first.
    return pullChanges(ctx.db.background, member, after, limit, request.protocolVersion);
  });
}
