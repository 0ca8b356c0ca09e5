import { useLiveQuery } from 'dexie-react-hooks';
import { awaitingFirstSync } from '../db/sync/holds-part';
import { useSyncStatus } from './use-sync-status';

/**
 * Where a connected device's first sync stands, for a list that would otherwise say it is empty:
 * `pending` while it runs (the list is loading, not empty), `stalled` while it cannot (offline, or
 * the server failed), `done` once it has finished, and always on a local-only device. Undefined
 * for the moment the device's answer is read.
 */
export type FirstSync = 'pending' | 'stalled' | 'done';

export function useFirstSync(): FirstSync | undefined {
  const awaiting = useLiveQuery(() => awaitingFirstSync().catch(() => false), []);
  const { state } = useSyncStatus();
  if (awaiting === undefined) return undefined;
  if (!awaiting) return 'done';
  return state === 'offline' || state === 'error' ? 'stalled' : 'pending';
}
