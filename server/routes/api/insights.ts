// GET /api/insights: the figures of /admin/insights, for admins only (a member gets 403
// admins_only; no session, 401 signed_out from the member routes' hook). Never cached.
import type { FastifyInstance } from 'fastify';
import { readInsights } from '../../db/insights/insights';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { memberOf } from '../../plugins/session';

export default async function insightsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/insights', async (request, reply) => {
    if (memberOf(request).role !== 'admin') throw refuse('admins_only');
    reply.header('cache-control', 'no-store');
    return readInsights(ctx.db);
  });
}
