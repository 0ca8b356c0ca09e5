// A post's `comments` is the number of its visible replies on this device: every write that
// changes a reply's state (the member's, or the server's through sync) recounts it in the same
// transaction, through the `[postId+state]` index.

import { db } from '../storage/schema';

/** How many visible replies a post has on this device (its `comments`). */
export function countVisibleReplies(postId: number): Promise<number> {
  return db.replies.where('[postId+state]').equals([postId, 'visible']).count();
}

/** Sets the post's `comments` to its number of visible replies; call it inside a readwrite transaction. */
export async function recountComments(postId: number): Promise<void> {
  const visible = await countVisibleReplies(postId);
  const post = await db.posts.get(postId);
  if (post && post.comments !== visible) await db.posts.update(postId, { comments: visible });
}

/**
 * How many visible replies each of these posts has on this device (0 for none), read as keys of
 * `[postId+state]` only: one index walk for a whole chunk of posts (an import), no reply rows.
 */
export async function visibleReplyCounts(postIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map(postIds.map((id) => [id, 0]));
  if (postIds.length === 0) return counts;
  const keys = await db.replies
    .where('[postId+state]')
    .anyOf(postIds.map((id) => [id, 'visible']))
    .keys();
  for (const key of keys) {
    const postId = (key as unknown as [number, string])[0];
    counts.set(postId, (counts.get(postId) ?? 0) + 1);
  }
  return counts;
}
