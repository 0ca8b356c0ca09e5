// The signed-in member's read positions and "N new" counts, live (issue 62), over db/follows/reads.ts.
import { useLiveQuery } from 'dexie-react-hooks';
import { readPositionOf, unreadCounts, unreadCountsOf } from '../db/follows/reads';
import { useSignedInEmail } from './use-follows';

const NONE: ReadonlyMap<number, number> = new Map();

/** The signed-in member's read position in a post, live (undefined: never read, or being read). */
export function useReadPosition(postId: number): number | undefined {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? readPositionOf(email, postId) : undefined), [email, postId]);
}

/**
 * The signed-in member's new replies in the posts on screen (postId → N new, only N > 0), live;
 * empty while read. Only those posts are read: the cost follows the screen, not the device's size.
 */
export function useUnreadCounts(postIds: readonly number[]): ReadonlyMap<number, number> {
  const email = useSignedInEmail();
  const key = postIds.join(',');
  return useLiveQuery(async () => (email && postIds.length > 0 ? unreadCountsOf(email, postIds) : NONE), [email, key], NONE);
}

/**
 * The posts with new replies for the signed-in member when `needed` (the search has `is:unread`),
 * live: the forum's list narrows its results to them before paging. Null when not needed; undefined
 * while read.
 */
export function useUnreadPostIds(needed: boolean): ReadonlySet<number> | null | undefined {
  const email = useSignedInEmail();
  const ids = useLiveQuery(async () => (needed ? new Set(email ? (await unreadCounts(email)).keys() : []) : null), [email, needed]);
  return needed ? (ids ?? undefined) : null;
}
