// The device's sync bookkeeping in the `meta` table (connected mode): whether this device has
// ever been connected to its server, its pull cursor, the last good sync, and whose data it holds.
// The key names live in ../contracts.ts (stored on devices: renaming one needs a migration).

import { META_KEYS, META_KEY_PREFIXES } from '../contracts';
import { db } from '../storage/schema';

export const SYNC_META = {
  connected: META_KEYS.syncConnected,
  cursor: META_KEYS.syncCursor,
  lastSyncAt: META_KEYS.syncLastSyncAt,
  owner: META_KEYS.syncOwner,
  samplesRemoved: META_KEYS.syncSamplesRemoved,
  signOutPending: META_KEYS.syncSignOutPending,
  uploadDecided: META_KEY_PREFIXES.syncUploadDecided,
  rekeyed: META_KEY_PREFIXES.syncRekeyed,
} as const;

async function read<T>(key: string, isValue: (value: unknown) => value is T): Promise<T | undefined> {
  const row = await db.meta.get(key);
  const value = row?.value;
  return isValue(value) ? value : undefined;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** True once this device has talked to its server; it then stays connected, even offline. */
export async function isConnectedDevice(): Promise<boolean> {
  return (await read(SYNC_META.connected, isNumber)) !== undefined;
}

/** Remembers that this device is connected (the first time only). */
export async function markConnected(now = Date.now()): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    if (!(await isConnectedDevice())) await db.meta.put({ key: SYNC_META.connected, value: now });
  });
}

/** The server change number up to which this device has applied every change (0 before the first pull). */
export async function readCursor(): Promise<number> {
  return (await read(SYNC_META.cursor, isNumber)) ?? 0;
}

/** When the last push and pull both succeeded (undefined before the first). */
export async function readLastSyncAt(): Promise<number | undefined> {
  return read(SYNC_META.lastSyncAt, isNumber);
}

export async function writeLastSyncAt(now = Date.now()): Promise<void> {
  await db.meta.put({ key: SYNC_META.lastSyncAt, value: now });
}

/** The member whose private posts this device holds (undefined before the first pull). */
export async function readOwner(): Promise<string | undefined> {
  return read(SYNC_META.owner, isString);
}

/** Remembers (true) or forgets (false) a sign-out the server has not heard yet. */
export async function setSignOutPending(pending: boolean, now = Date.now()): Promise<void> {
  if (pending) await db.meta.put({ key: SYNC_META.signOutPending, value: now });
  else await db.meta.delete(SYNC_META.signOutPending);
}

/** True when a sign-out made offline still has to reach the server. */
export async function isSignOutPending(): Promise<boolean> {
  return (await read(SYNC_META.signOutPending, isNumber)) !== undefined;
}

/** The server's id of a post created on this device under the temporary `id`, once the server took it (else undefined). */
export function movedPostId(id: number): Promise<number | undefined> {
  return read(`${SYNC_META.rekeyed}${id}`, isNumber);
}
