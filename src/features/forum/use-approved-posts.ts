import { useLiveQuery } from 'dexie-react-hooks';
import { countApprovedPosts, listApprovedPosts } from '../../db/posts';
import type { CategoryFilter } from '../../db/types';
import { usePagedLiveQuery } from '../../lib/use-paged-live-query';

/** Approved posts, newest first, a page at a time, live in every tab. */
export function useApprovedPosts(search: string, category: CategoryFilter) {
  return usePagedLiveQuery((limit) => listApprovedPosts({ search, category, limit }), `${category}\u0000${search}`);
}

/** How many approved posts the category holds, live. */
export function useApprovedCount(category: CategoryFilter): number | undefined {
  return useLiveQuery(() => countApprovedPosts(category), [category]);
}
