// GET /api/posts and GET /api/posts/:id (issue 44): the forum a page at a time, for a device that
// holds a window of it (db/window/pages.ts): its first sync's pages, an older page, a category's,
// one post opened from a link. Signed-in members only, each page only what they may see; a page
// is at most MAX_POSTS_PAGE posts, a category must be one of the forum's, and a member reads at
// most pages_per_minute pages (429 slow_down with Retry-After past it). With the device's
// cursor (`after`), a replica that has replayed that far answers (db/sync/replica.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { postParamsSchema, postsQuerySchema } from '../../../src/shared/protocol';
import { readForumPage, readForumPost } from '../../db/window/pages';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { memberOf } from '../../plugins/session';
import { readFromCursor } from '../../db/sync/replica';
import { takeForRequest } from '../../lib/limits';
import { UNKNOWN_CATEGORY_MESSAGE } from './search';
import { maySeeCategoryId } from '../../db/groups/categories';

const cursorSchema = z.object({ after: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional() });
const pageQuerySchema = postsQuerySchema.extend(cursorSchema.shape);

export default async function postsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/posts', { schema: { querystring: pageQuerySchema } }, async (request, reply) => {
    const { part, before, limit, category, after } = request.query as z.infer<typeof pageQuerySchema>;
    const member = memberOf(request);
    if (category !== undefined && !(await maySeeCategoryId(ctx.db, member, category))) throw refuse('invalid', UNKNOWN_CATEGORY_MESSAGE);
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'pages_per_minute', member);
    reply.header('cache-control', 'no-store');
    return readFromCursor(ctx.db, after, request, reply, (source) =>
      readForumPage(source === ctx.db ? ctx.db.background : source, member, { part, before, limit, category }),
    );
  });

  app.get('/api/posts/:id', { schema: { params: postParamsSchema, querystring: cursorSchema } }, async (request, reply) => {
    const { id } = request.params as z.infer<typeof postParamsSchema>;
    const { after } = request.query as z.infer<typeof cursorSchema>;
    const member = memberOf(request);
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'pages_per_minute', member);
    reply.header('cache-control', 'no-store');
    const page = await readFromCursor(ctx.db, after, request, reply, (source) => readForumPost(source, member, id));
    if (!page) throw refuse('not_found');
    return page;
  });
}
