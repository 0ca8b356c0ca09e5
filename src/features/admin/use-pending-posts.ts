import { useLiveQuery } from 'dexie-react-hooks';
import { countPendingPosts, listPendingPosts } from '../../db/posts/posts';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';

/** Posts waiting for review, newest first, paged and live in every admin tab. */
export function usePendingPosts() {
  return usePagedLiveQuery((limit) => listPendingPosts(limit), 'pending');
}

/** How many posts wait for review, live; `enabled` false (a member) reads nothing and gives undefined. */
export function usePendingCount(enabled = true): number | undefined {
  return useLiveQuery(() => (enabled ? countPendingPosts() : undefined), [enabled]);
}
