// What an older build writes into the `posts` mirror on a connected device becomes operations,
// so it reaches the server too: a new post by the signed-in member becomes a create, a higher
// like count becomes likes. Runs inside the mirror's readwrite transaction (posts, meta, outbox).

import { readStoredSession } from '../members/session';
import type { Post } from '../types';
import { db } from '../storage/schema';
import { isUnsentCreate, newOp, queueOperation } from '../ops/outbox';
import { MAX_LIKES_PER_OP } from '../../shared/ops/like';

/** Queues the operations for posts the older build added and for the likes it added. */
export async function queueMirrorOperations(added: readonly Post[], likes: readonly { postId: number; count: number }[]): Promise<void> {
  const session = readStoredSession();
  if (!session) return;
  for (const post of added) {
    if (post.authorEmail !== session.email) continue;
    // A post the server already has (the mirror had dropped it for space) or one already queued.
    if ((await db.posts.get(post.id))?.sync || (await isUnsentCreate(post.id))) continue;
    const fields = { title: post.title, content: post.content, category: post.category, tags: post.tags };
    await queueOperation(newOp('create', { post: fields }), post.id, session);
  }
  for (const { postId, count } of likes) {
    for (let left = count; left > 0; left -= MAX_LIKES_PER_OP) {
      await queueOperation(newOp('like', { postId, count: Math.min(left, MAX_LIKES_PER_OP) }), postId, session);
    }
  }
}
