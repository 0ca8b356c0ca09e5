import { useEffect, useMemo, useState } from 'react';
import { getPostsByIds, listApprovedPosts, PAGE_SIZE } from '../../db/posts/posts';
import { afterFirstPosts, markFirstPostsShown } from '../../db/storage/idle';
import { searchApprovedPostIds, warmSearchIndex } from '../../db/search/client';
import { cleanSearchQuery, searchKey } from '../../db/search/text';
import type { CategoryFilter, Post } from '../../db/types';
import { snapshotPostCount } from '../../boot/forum-snapshot-app';
import { usePagedLiveQuery, type PagedList, type PageRange } from '../../hooks/use-paged-live-query';
import { useApprovedCount } from './use-approved-count';
import { useSearchResults } from './use-search-results';
import { isPublicPost } from '../../shared/visibility';

/** Posts rendered first for the first page, a new search or category: more than a tall screen shows. */
const FIRST_SCREEN = 6;

export interface ApprovedPosts extends PagedList<Post> {
  /** How many posts match (the category's approved posts, or the search results); undefined while counting. */
  total: number | undefined;
  /** True while the rows on screen answer an older search than the one typed. */
  stale: boolean;
  /** For a post the search found only through one of its replies: that reply's id. */
  replies: Record<number, string>;
}

const NO_REPLIES: Record<number, string> = {};

/**
 * One page of a search's results (ids in the order found): the public posts after `after`, through
 * `through`, or up to `limit` of them (reading on past any that are no longer public, so that a page
 * not full means the results have ended).
 */
async function readFound(ids: readonly number[], { after, through, limit = PAGE_SIZE }: PageRange<Post>): Promise<Post[]> {
  const from = after ? ids.indexOf(after.id) + 1 : 0;
  // A page after a post these results do not hold (another answer's): none (a new answer starts again).
  if (from === 0 && after) return [];
  if (through) return (await getPostsByIds(ids.slice(from, ids.indexOf(through.id) + 1))).filter((post) => isPublicPost(post));
  const rows: Post[] = [];
  for (let at = from; rows.length < limit && at < ids.length; at += limit - rows.length)
    rows.push(...(await getPostsByIds(ids.slice(at, at + limit - rows.length))).filter((post) => isPublicPost(post)));
  return rows;
}

/**
 * Approved posts, newest first, a page at a time, live in every tab. Browsing reads the
 * `[status+id]` (or `[status+category+id]`) index; a search asks the search worker for the
 * matching ids and reads just the rows on screen. `me` (the signed-in member) answers `is:mine`.
 */
/** What the search box's text asks the search worker (empty: no search, the category's posts). */
const searchQueryOf = (search: string) => cleanSearchQuery(search).trim();

/**
 * Asks the search worker at once, from the keystroke, the question the list will ask once the page
 * has rendered (useApprovedPosts, same arguments): the worker searches while React renders, and
 * the list's question takes the same answer (searchApprovedPostIds).
 */
export function askSearchEarly(search: string, category: CategoryFilter, me: string | null = null): void {
  const query = searchQueryOf(search);
  if (query) searchApprovedPostIds(query, category, me).catch(() => undefined);
}

/**
 * `only`: a search's results are narrowed to these posts before they are paged (`is:unread`: the
 * posts with new replies), so every page is full and the count is right; undefined while it is read;
 * null: no narrowing.
 */
export function useApprovedPosts(
  search: string,
  category: CategoryFilter,
  me: string | null = null,
  only: ReadonlySet<number> | null | undefined = null,
): ApprovedPosts {
  const query = searchQueryOf(search);
  const onlyKey = only ? `\u0000only:${[...only].join(',')}` : '';
  const key = searchKey(category, query) + onlyKey;
  const results = useSearchResults(query, category, me);
  const [firstPageShown, setFirstPageShown] = useState(false);
  // The live list takes the snapshot's place in one frame: at least as many posts as it showed.
  const [snapshotPosts] = useState(snapshotPostCount);
  // Counting 100,000 index entries would hold up the first page's read: count once it is shown.
  const browseTotal = useApprovedCount(category, !query && firstPageShown);

  // Build the search index in the background once the forum's first posts are on screen (or 3 s):
  // started at once, its worker's script came before them on a busy machine (issue 64, item 2).
  useEffect(() => afterFirstPosts(3_000, () => warmSearchIndex(), 3_000), []);

  // While a new search runs, the previous answer stays on screen (marked stale) instead of a spinner.
  const shown = query && only !== undefined ? results : undefined;
  const found = shown?.ids;
  const ids = useMemo(() => (found && only ? found.filter((id) => only.has(id)) : found), [found, only]);
  const total = query ? ids?.length : browseTotal;
  const list = usePagedLiveQuery<Post>(
    async (page) => {
      if (!query) return listApprovedPosts({ category, ...page });
      return ids ? readFound(ids, page) : [];
    },
    query ? searchKey('search', shown?.key ?? 'none') + onlyKey : key,
    { total, revision: shown?.revision, firstScreen: Math.max(FIRST_SCREEN, snapshotPosts) },
  );
  if (!firstPageShown && list.items !== undefined) setFirstPageShown(true);
  // Start-up work that can wait (reading the legacy copy, the posting code, the search index) waits
  // for this mark: the first posts on screen, not an empty first read. On a device whose first sync
  // is still bringing its posts, that work would otherwise run in the posts' way (issue 64, item 4).
  const postsShown = (list.items?.length ?? 0) > 0;
  useEffect(() => {
    if (postsShown) markFirstPostsShown();
  }, [postsShown]);
  if (query && !shown)
    return {
      items: undefined,
      pages: undefined,
      hasMore: false,
      loadingMore: false,
      loadMore: list.loadMore,
      total: undefined,
      stale: true,
      replies: NO_REPLIES,
    };
  return { ...list, total, stale: Boolean(query) && shown?.key + onlyKey !== key, replies: shown?.replies ?? NO_REPLIES };
}
