import { useLiveQuery } from 'dexie-react-hooks';
import { countPendingPosts, listPendingPosts, type ReviewedPost } from '../../db/posts/posts';
import { countFlaggedItems } from '../../db/flags/flag-count';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';
import { readStoredSession } from '../../db/members/session';
import { isDataError } from '../../db/storage/errors';

/** Whether the stored session is an admin's now: a live query re-runs before React hears of a role change. */
const adminNow = () => readStoredSession()?.role === 'admin';

/** Posts waiting for review, newest first, paged and live in every admin tab. */
export function usePendingPosts() {
  return usePagedLiveQuery<ReviewedPost>((page) => listPendingPosts(page), 'pending');
}

/** How many posts wait for review, live (the Pending Posts tab's count). */
export function usePendingCount(): number | undefined {
  return useLiveQuery(async () => (adminNow() ? countPendingPosts() : undefined), []);
}

/**
 * What waits for an admin, live: posts to review and items with open flags (the Admin link's badge
 * counts both); `enabled` false (a member) reads nothing and gives undefined, and so does a query that
 * re-runs after the server made this session a member's, before the render that turns `enabled` off.
 */
export function useReviewCounts(enabled = true): { pending: number; flagged: number } | undefined {
  return useLiveQuery(async () => {
    if (!enabled || !adminNow()) return undefined;
    try {
      return { pending: await countPendingPosts(), flagged: await countFlaggedItems() };
    } catch (error) {
      // The role changed between the two reads (CI saw it): nothing, not a crash.
      if (isDataError(error, 'admins_only')) return undefined;
      throw error;
    }
  }, [enabled]);
}
