// Free up space (connected mode): old forum posts the member does not need leave this device and
// come back with Download the whole forum (a pull from the start, the normal pull machinery). What
// is kept: the member's saved posts and their replies, their own posts, whatever the outbox still
// has to send, the newest KEEP_NEWEST posts, and every post the server never had (local-only ones).

import Dexie from 'dexie';
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import { noteRemovedPosts } from '../storage/removals';
import { META_KEYS } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';
import { isConnectedDevice, readLastSyncAt, SYNC_META } from '../ops/sync-meta';
import type { HoldsPart } from './apply-pull';

/** The newest approved posts Free up space always keeps (the forum's first pages). */
export const KEEP_NEWEST = 50;

const run = withDataErrors;
const CHUNK = 2_000;

/**
 * Removes the approved posts (with their replies and views) that are not saved by `email`, not
 * written by `email`, not in the outbox and not among the newest KEEP_NEWEST; the device then
 * "holds part". Local-only: nothing (this device is the forum's only copy).
 */
export async function freeUpSpace(email: string): Promise<{ removed: number }> {
  const me = normalizeEmail(email);
  const removed = await run(() =>
    db.transaction('rw', [db.posts, db.replies, db.viewed, db.saved, db.outbox, db.meta], async () => {
      if (!(await isConnectedDevice())) return [];
      const keep = new Set<number>();
      await db.saved
        .where('[email+at]')
        .between([me, Dexie.minKey], [me, Dexie.maxKey])
        .each((row) => {
          if (row.saved) keep.add(row.postId);
        });
      await db.outbox.orderBy('postId').eachKey((postId) => {
        keep.add(postId as number);
      });
      // Keys first (no rows read), then the candidates' rows in chunks: at 100,000 posts the
      // whole table is never in memory at once.
      await db.posts
        .where('[authorEmail+id]')
        .between([me, Dexie.minKey], [me, Dexie.maxKey])
        .eachPrimaryKey((id) => {
          keep.add(id);
        });
      const approved = await db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).primaryKeys();
      const candidates = approved.slice(0, Math.max(0, approved.length - KEEP_NEWEST)).filter((id) => !keep.has(id));
      const ids: number[] = [];
      for (let at = 0; at < candidates.length; at += CHUNK) {
        const rows = await db.posts.bulkGet(candidates.slice(at, at + CHUNK));
        // A post the server never had (from before this device met it) lives only here.
        for (const row of rows) if (row?.sync) ids.push(row.id);
      }
      if (ids.length === 0) return [];
      const leaving = new Set(ids);
      await db.posts.bulkDelete(ids);
      await db.replies.filter((reply) => leaving.has(reply.postId)).delete();
      await db.viewed.filter((view) => leaving.has(view.postId)).delete();
      await noteRemovedPosts(ids);
      await countChange();
      await db.meta.put({ key: META_KEYS.holdsPart, value: 'freed' satisfies HoldsPart });
      return ids;
    }),
  );
  if (removed.length > 0) emitLocalChange('space-freed');
  return { removed: removed.length };
}

/** True after freeUpSpace (until the whole forum is back), or while a connected device's first sync has not finished. */
export async function holdsPart(): Promise<boolean> {
  return run(async () => {
    if ((await db.meta.get(META_KEYS.holdsPart)) !== undefined) return true;
    return (await isConnectedDevice()) && (await readLastSyncAt()) === undefined;
  });
}

/**
 * Connected: asks for a pull from the start (the next sync, which this write starts, brings back
 * every post the member may see); "holds part" ends once that pull has finished. Resolves when asked.
 */
export async function downloadWholeForum(): Promise<void> {
  const asked = await run(() =>
    db.transaction('rw', db.meta, async () => {
      if (!(await isConnectedDevice())) return false;
      await db.meta.put({ key: SYNC_META.cursor, value: 0 });
      await db.meta.put({ key: META_KEYS.holdsPart, value: 'refetch' satisfies HoldsPart });
      return true;
    }),
  );
  if (asked) emitLocalChange('space-freed');
}
