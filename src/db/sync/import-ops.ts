// An admin's import on a connected device reaches the server as operations, one chunk per
// transaction: a post the server has never seen becomes a create (then its review and its likes,
// since the protocol creates posts pending and unliked); a post it has gets the likes and the
// review the backup adds. The sample posts are never sent (the server has its own).

import { db, type PostRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { samplePosts } from '../../shared/sample-posts';
import type { Post, Session } from '../types';
import { localView } from '../ops/replay';
import { definitionOf } from '../../shared/ops/registry';
import { newOp, operationsFor, queueOperation } from '../ops/outbox';
import { movedPostId } from '../ops/sync-meta';
import { refreshLocalView } from '../posts/pulled';
import { MAX_LIKES_PER_OP } from '../../shared/ops/like';
const sampleKeys = new Set(samplePosts(0).map((post) => `${post.title}\n${post.content}`));

async function queueLikes(postId: number, count: number, session: Session): Promise<void> {
  for (let left = count; left > 0; left -= MAX_LIKES_PER_OP) {
    await queueOperation(newOp('like', { postId, count: Math.min(left, MAX_LIKES_PER_OP) }), postId, session);
  }
}

/** Queues the review a backup adds to a post the server has pending. */
async function queueReview(postId: number, status: 'approved' | 'rejected', session: Session): Promise<void> {
  await queueOperation(status === 'approved' ? newOp('approve', { postId }) : newOp('reject', { postId }), postId, session);
}

/** A row that a re-imported backup put back under the id this device once sent it with: the server's row instead. */
async function serverCopy(row: PostRow): Promise<PostRow | undefined> {
  const moved = await movedPostId(row.id);
  if (moved === undefined) return row;
  await db.posts.delete(row.id);
  return db.posts.get(moved);
}

async function queueOne(post: Post, stored: PostRow | undefined, session: Session): Promise<boolean> {
  if (!stored) return false;
  if (sampleKeys.has(`${post.title}\n${post.content}`)) {
    // The server has its own copy of each sample post: a local one would show it twice.
    if (!stored.sync) await db.posts.delete(stored.id);
    return false;
  }
  const row = stored.sync ? stored : await serverCopy(stored);
  if (!row) return false;
  const ops = await operationsFor(row.id);
  if (row.sync) {
    const shown = await localView(row.sync, ops, row);
    if (post.likes > shown.likes && shown.status === 'approved') await queueLikes(row.id, post.likes - shown.likes, session);
    if (shown.status === 'pending' && post.status !== 'pending') await queueReview(row.id, post.status, session);
    await refreshLocalView(row.id);
    return true;
  }
  if (ops.some((entry) => definitionOf(entry.op.type).creates === 'post')) return false; // already on its way
  const fields = { title: row.title, content: row.content, category: row.category, tags: row.tags };
  await queueOperation(newOp('create', { post: fields }), row.id, session);
  if (row.status !== 'pending') await queueReview(row.id, row.status, session);
  if (row.status === 'approved') await queueLikes(row.id, row.likes, session);
  return true;
}

/** Queues the operations for one chunk of imported posts (already merged locally); returns how many were queued. */
export async function queueImportedChunk(posts: readonly Post[], session: Session): Promise<number> {
  const queued = await db.transaction('rw', db.posts, db.meta, db.outbox, async () => {
    const rows = await db.posts.bulkGet(posts.map((post) => post.id));
    let count = 0;
    for (const [index, post] of posts.entries()) if (await queueOne(post, rows[index], session)) count += 1;
    return count;
  });
  if (queued > 0) emitLocalChange('posts-imported');
  return queued;
}
