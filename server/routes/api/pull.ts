// GET /api/changes (pull): the changes after a cursor that this member may see, in pages, in the
// protocol version the request speaks (a version-1 device gets posts only).
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pullQuerySchema } from '../../../src/shared/protocol';
import { pullChanges } from '../../db/sync/changes';
import type { ServerContext } from '../../context';
import { memberOf } from '../../plugins/session';

export default async function pullRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/changes', { schema: { querystring: pullQuerySchema } }, async (request) => {
    const { after, limit } = request.query as z.infer<typeof pullQuerySchema>;
    // A page is long, unhurried work: a like or a sign-in waiting for the embedded engine goes first.
    return pullChanges(ctx.db.background, memberOf(request), after, limit, request.protocolVersion);
  });
}
