// GET /api/search?q=&category=&limit= (protocol version 5; replies, `more` and `matches` since 6): PostgreSQL full-text search of the forum
// for a signed-in member (db/search/search.ts), `q` in the search language of src/shared/search-language.ts. The
// posts come as a pull would send them to this member (nothing they may not see), best first, with
// how many match (up to 100, `more` beyond) and the replies that matched. With the device's cursor
// (`after`) a replica that has replayed that far answers (db/sync/replica.ts). A search of nothing (no words, no filter, every category) is refused, and
// so is a category the forum does not have.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { parseQuery } from '../../../src/shared/search-language';
import { CATEGORIES } from '../../../src/shared/post-rules';
import { searchQuerySchema } from '../../../src/shared/protocol';
import { isEmptySearch, searchPosts } from '../../db/search/search';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { memberOf } from '../../plugins/session';
import { takeForRequest } from '../../lib/limits';
import { readFromCursor } from '../../db/sync/replica';
import { maySeeCategoryId } from '../../db/groups/categories';

/** The sentence of a search with nothing to look for. */
export const EMPTY_SEARCH_MESSAGE = 'Type words to search for, or a filter such as author:, category:, tag: or is:mine.';

/** The sentence of a category the forum does not have, or the member may not see (the device's dropdown offers All and the categories it may see). */
export const UNKNOWN_CATEGORY_MESSAGE = `Choose a category of the forum: All, ${CATEGORIES.join(', ')}.`;

export default async function searchRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/search', { schema: { querystring: searchQuerySchema } }, async (request, reply) => {
    const { q, category, limit, after } = request.query as z.infer<typeof searchQuerySchema>;
    const member = memberOf(request);
    // A category the forum has and the member may see (issue 61: the admins' own too).
    if (category !== 'All' && !(await maySeeCategoryId(ctx.db, member, category))) throw refuse('invalid', UNKNOWN_CATEGORY_MESSAGE);
    const parsed = parseQuery(q);
    if (isEmptySearch(parsed, category)) throw refuse('invalid', EMPTY_SEARCH_MESSAGE);
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'searches_per_minute', member);
    reply.header('cache-control', 'no-store');
    return readFromCursor(ctx.db, after, request, reply, (source) => searchPosts(source, member, { parsed, category, limit }));
  });
}
