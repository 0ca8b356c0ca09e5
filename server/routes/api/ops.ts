// POST /api/ops: a batch of operations, applied in order, each in its own transaction and at most
// once; one result per operation. GET /api/changes: the changes after a cursor, in pages.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_PULL_LIMIT, pushRequestSchema, type OpResult } from '../../../src/shared/protocol';
import { changeHead, pullChanges } from '../../db/changes';
import { applyOp } from '../../db/ops';
import type { ServerContext } from '../../context';
import { requireUser } from '../../plugins/session';

const pullQuerySchema = z.object({
  after: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PULL_LIMIT).default(500),
});

/**
 * A change number at or past every change the push made: when each result carries its post (every
 * applied like or review does), the newest of their seqs and the head this instance has heard of,
 * without a query; otherwise the database's head.
 */
async function pushCursor(ctx: ServerContext, results: OpResult[]): Promise<number> {
  let newest = ctx.hub.cursor;
  for (const result of results) {
    if (result.status === 'refused') continue;
    if (!result.post) return changeHead(ctx.db);
    newest = Math.max(newest, result.post.seq);
  }
  return newest;
}

export default async function opsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/ops', { bodyLimit: 1024 * 1024 }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const { ops } = pushRequestSchema.parse(request.body);
    const results: OpResult[] = [];
    for (const op of ops) results.push(await applyOp(ctx.db, user, op));
    return { results, cursor: await pushCursor(ctx, results) };
  });

  app.get('/api/changes', async (request) => {
    const user = await requireUser(ctx.db, request);
    const { after, limit } = pullQuerySchema.parse(request.query);
    return pullChanges(ctx.db, user, after, limit);
  });
}
