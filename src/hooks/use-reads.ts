// The signed-in member's read positions and "N new" counts, live (issue 62), over db/follows/reads.ts.
import { useLiveQuery } from 'dexie-react-hooks';
import { readPositionOf, unreadCounts } from '../db/follows/reads';
import { useSignedInEmail } from './use-follows';

const NONE: ReadonlyMap<number, number> = new Map();

/** The signed-in member's read position in a post, live (undefined: never read, or being read). */
export function useReadPosition(postId: number): number | undefined {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? readPositionOf(email, postId) : undefined), [email, postId]);
}

/**
 * The signed-in member's new replies (postId → N new, only N > 0), live; empty while read. Read
 * through the member's [email+unread] index, so the cost follows the posts with something new,
 * never the list: each card looks its own up. Before (issue 64, item 5), every card's row was read
 * again on each page added to the list (1,000 gets at the 20th older page, the most of its time).
 */
export function useUnreadCounts(): ReadonlyMap<number, number> {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? unreadCounts(email) : NONE), [email], NONE);
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
