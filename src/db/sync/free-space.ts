// Free up space (connected mode): old forum posts the member does not need leave this device and
// come back with Download the whole forum (a pull from the start, the normal pull machinery). What
// is kept: the member's saved posts and their replies, their own posts, whatever the outbox still
// has to send, the newest KEEP_NEWEST posts, and every post the server never had (local-only ones).

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { META_KEYS } from '../contracts';
import { isConnectedDevice, SYNC_META } from '../ops/sync-meta';
import type { HoldsPart } from './apply-pull';
import { removeOldPosts } from './window';

export { holdsPart } from './holds-part';

/** The newest approved posts Free up space always keeps (the forum's first pages). */
export const KEEP_NEWEST = 50;

const run = withDataErrors;

/**
 * Removes the approved posts (with their replies and views) that are not saved by `email`, not
 * written by `email`, not in the outbox and not among the newest KEEP_NEWEST (window.ts); the
 * device then "holds part", and keeps a window from now on. Local-only: nothing (this device is the
 * forum's only copy).
 */
export async function freeUpSpace(email: string): Promise<{ removed: number }> {
  const removed = await run(() =>
    db.transaction('rw', [db.posts, db.replies, db.reads, db.viewed, db.saved, db.outbox, db.meta], async () => {
      if (!(await isConnectedDevice())) return [];
      // The device keeps a window again (and its budget) once the member frees space.
      await db.meta.delete(META_KEYS.windowWhole);
      const ids = await removeOldPosts(email, KEEP_NEWEST);
      if (ids.length > 0) await db.meta.put({ key: META_KEYS.holdsPart, value: 'freed' satisfies HoldsPart });
      return ids;
    }),
  );
  if (removed.length > 0) emitLocalChange('space-freed');
  return { removed: removed.length };
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
      // No budget from now on, and no window: the pull from the start brings every post.
      await db.meta.put({ key: META_KEYS.windowWhole, value: true });
      await db.meta.delete(META_KEYS.windowHead);
      await db.meta.put({ key: META_KEYS.windowFloor, value: 0 });
      return true;
    }),
  );
  if (asked) emitLocalChange('space-freed');
}
