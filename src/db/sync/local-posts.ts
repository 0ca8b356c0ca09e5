// A device that was local-only meets a server: its copies of the sample posts and their replies go (the server has
// its own, so they are never shown twice), and the member's own local posts can be uploaded as
// new pending posts. Nothing else is dropped: other local-only posts stay on the device.

import Dexie from 'dexie';
import { META_KEYS } from '../contracts';
import { db, type PostRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { countChange, nextRev } from '../storage/revisions';
import { noteRemovedPosts } from '../storage/removals';
import type { Session } from '../types';
import { newOp, queueOperation } from '../ops/outbox';
import { SYNC_META } from '../ops/sync-meta';

/** Removes this device's own sample posts once (they were never on the server). */
export async function removeLocalSamples(): Promise<number> {
  // Loaded only here (and when a device seeds them): the sample posts are 2 KB gzip that the forum does not need.
  const { samplePosts } = await import('../../shared/sample-posts');
  const removed = await db.transaction('rw', [db.posts, db.replies, db.reads, db.meta], async () => {
    if (await db.meta.get(SYNC_META.samplesRemoved)) return 0;
    await db.meta.put({ key: SYNC_META.samplesRemoved, value: Date.now() });
    const seeded = await db.meta.get(META_KEYS.seeded);
    if (typeof seeded?.value !== 'number') return 0;
    const ids = samplePosts(seeded.value).map((post) => post.id);
    const rows = await db.posts.bulkGet(ids);
    const local = rows.filter((row): row is PostRow => row !== undefined && !row.sync).map((row) => row.id);
    await db.posts.bulkDelete(local);
    await noteRemovedPosts(local);
    for (const postId of local) await db.replies.where('[postId+state]').between([postId, Dexie.minKey], [postId, Dexie.maxKey]).delete();
    if (local.length > 0) await countChange();
    return local.length;
  });
  if (removed > 0) emitLocalChange('synced');
  return removed;
}

async function ownLocalPosts(email: string): Promise<PostRow[]> {
  const queued = new Set((await db.outbox.toArray()).map((row) => row.postId));
  return db.posts
    .where('[authorEmail+id]')
    .between([email, 0], [email, Number.MAX_SAFE_INTEGER])
    .filter((row) => !row.sync && !queued.has(row.id))
    .toArray();
}

/** How many posts this member wrote on this device that the server has never seen (0 once decided). */
export async function countUploadablePosts(email: string): Promise<number> {
  const decided = await db.meta.get(`${SYNC_META.uploadDecided}${email}`);
  if (decided) return 0;
  return (await ownLocalPosts(email)).length;
}

/**
 * Answers the upload question once: `upload` queues each of the member's local posts as a create
 * (it becomes pending, for review on the server); `keep` leaves them on this device only.
 */
export async function decideUpload(session: Session, upload: boolean): Promise<number> {
  const count = await db.transaction('rw', db.posts, db.meta, db.outbox, async () => {
    await db.meta.put({ key: `${SYNC_META.uploadDecided}${session.email}`, value: upload ? 'upload' : 'keep' });
    if (!upload) return 0;
    const posts = await ownLocalPosts(session.email);
    for (const post of posts) {
      await db.posts.update(post.id, { status: 'pending', rev: await nextRev() });
      const fields = { title: post.title, content: post.content, category: post.category, tags: post.tags };
      await queueOperation(newOp('create', { post: fields }), post.id, session);
    }
    if (posts.length > 0) await countChange();
    return posts.length;
  });
  if (count > 0) emitLocalChange('op:create');
  return count;
}
