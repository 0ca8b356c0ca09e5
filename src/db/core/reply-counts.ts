// A post's `comments` is the number of its visible replies on this device: every write that
// changes a reply's state (the member's, or the server's through sync) recounts it in the same
// transaction, through the `[postId+state]` index.

import { db } from './schema';

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
