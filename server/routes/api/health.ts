// Liveness and readiness, kept apart (issue 64), so a database away for a few seconds empties
// neither the load balancer nor the devices' connected mode:
// - GET /api/health (liveness): 200 with JSON while the process serves requests; it runs no query.
//   The app decides its connected mode from this answer (SYNC.md); `protocol` is the PROTOCOL_VERSION
//   served. A process that answers it needs no restart.
// - GET /api/ready (readiness): 200 with JSON when the database answers `SELECT 1` within
//   READY_TIMEOUT_MS, else 503 database_unavailable. The load balancer (and Kubernetes' readiness
//   probe) checks it, tolerating a few failures in a row: meanwhile pushes wait inside the server
//   (lib/reachable.ts), so a short pooler or primary restart takes no instance out.
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../../src/shared/errors';
import { PROTOCOL_VERSION } from '../../../src/shared/protocol';
import type { ServerContext } from '../../context';
import { errorBody } from '../../plugins/errors';

/** How long readiness waits for the database's answer (a hung connection counts as away). */
export const READY_TIMEOUT_MS = 2_000;

export default async function healthRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ok: true, database: ctx.db.kind, version: ctx.version, protocol: PROTOCOL_VERSION };
  });

  app.get('/api/ready', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ctx.db.query('SELECT 1'),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      // Asked every second by the balancer: logged at debug, not as a failed request.
      request.log.debug({ err: error }, 'not ready: the database is not answering');
      return reply.code(ERRORS.database_unavailable.status).header('retry-after', '5').send(errorBody('database_unavailable'));
    } finally {
      clearTimeout(timer);
    }
    return { ok: true, database: ctx.db.kind };
  });
}
