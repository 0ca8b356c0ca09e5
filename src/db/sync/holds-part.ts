// Whether this device holds part of the forum (connected mode, issue 44): a file of its own, as the
// forum screen reads it at start and Free up space's code (free-space.ts, window.ts) can wait.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { META_KEYS } from '../contracts';
import { SYNC_META } from '../ops/sync-meta';

/** True after freeUpSpace (until the whole forum is back), or while a connected device's first sync has not finished. */
export async function holdsPart(): Promise<boolean> {
  return withDataErrors(async () => {
    // One read of the three keys: a live query follows every key it read (after a second await,
    // the later reads were not followed, and the answer stayed "holds part" after a first sync).
    const [part, connected, lastSyncAt] = await db.meta.bulkGet([META_KEYS.holdsPart, SYNC_META.connected, SYNC_META.lastSyncAt]);
    if (part !== undefined) return true;
    return typeof connected?.value === 'number' && typeof lastSyncAt?.value !== 'number';
  });
}
