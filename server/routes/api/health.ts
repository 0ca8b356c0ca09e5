// GET /api/health: 200 with JSON once the server can serve requests (the database answers).
// The app decides its connected mode from this answer; `protocol` is the PROTOCOL_VERSION served.
import type { FastifyInstance } from 'fastify';
import { PROTOCOL_VERSION } from '../../../src/shared/protocol';
import type { ServerContext } from '../../context';

export default async function healthRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/health', async (_request, reply) => {
    await ctx.db.query('SELECT 1');
    reply.header('cache-control', 'no-store');
    return { ok: true, database: ctx.db.kind, version: ctx.version, protocol: PROTOCOL_VERSION };
  });
}
