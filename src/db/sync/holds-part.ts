// Whether this device holds part of the forum (connected mode, issue 44): a file of its own, as the
// forum screen reads it at start and Free up space's code (free-space.ts, window.ts) can wait.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { META_KEYS } from '../contracts';
import { SYNC_META } from '../ops/sync-meta';

type MetaRow = { value: unknown } | undefined;

/** A device that has found its server (mode.ts marks it) and has not finished a sync with it yet. */
const beforeFirstSync = (connected: MetaRow, lastSyncAt: MetaRow) =>
  typeof connected?.value === 'number' && typeof lastSyncAt?.value !== 'number';

/** True after freeUpSpace (until the whole forum is back), or while a connected device's first sync has not finished. */
export async function holdsPart(): Promise<boolean> {
  return withDataErrors(async () => {
    // One read of the three keys: a live query follows every key it read (after a second await,
    // the later reads were not followed, and the answer stayed "holds part" after a first sync).
    const [part, connected, lastSyncAt] = await db.meta.bulkGet([META_KEYS.holdsPart, SYNC_META.connected, SYNC_META.lastSyncAt]);
    return part !== undefined || beforeFirstSync(connected, lastSyncAt);
  });
}

/**
 * True while a connected device's first sync has not finished: a list it shows empty may be empty
 * only for now (hooks/use-first-sync.ts). Never on a local-only device.
 */
export async function awaitingFirstSync(): Promise<boolean> {
  return withDataErrors(async () => {
    const [connected, lastSyncAt] = await db.meta.bulkGet([SYNC_META.connected, SYNC_META.lastSyncAt]);
    return beforeFirstSync(connected, lastSyncAt);
  });
}
