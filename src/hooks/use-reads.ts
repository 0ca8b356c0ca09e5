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

/** The signed-in member's posts with new replies (postId → N new, only N > 0), live; empty while read. */
export function useUnreadCounts(): ReadonlyMap<number, number> {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? unreadCounts(email) : NONE), [email], NONE);
}
