import { useLiveQuery } from 'dexie-react-hooks';
import { countPendingPosts, listPendingPosts } from '../../db/posts/posts';
import { countFlaggedItems } from '../../db/flags/flag-rows';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';

/** Posts waiting for review, newest first, paged and live in every admin tab. */
export function usePendingPosts() {
  return usePagedLiveQuery((limit) => listPendingPosts(limit), 'pending');
}

/** How many posts wait for review, live (the Pending Posts tab's count). */
export function usePendingCount(): number | undefined {
  return useLiveQuery(() => countPendingPosts(), []);
}

/**
 * What waits for an admin, live: posts to review and items with open flags (the Admin link's badge
 * counts both); `enabled` false (a member) reads nothing and gives undefined.
 */
export function useReviewCounts(enabled = true): { pending: number; flagged: number } | undefined {
  return useLiveQuery(
    async () => (enabled ? { pending: await countPendingPosts(), flagged: await countFlaggedItems() } : undefined),
    [enabled],
  );
}
