import { useSyncExternalStore } from 'react';
import { getSyncStatus, onSyncStatus, type SyncStatus } from '../sync/status';

const subscribe = (listener: () => void) => {
  const stop = onSyncStatus(listener);
  return () => {
    stop();
  };
};

/** The sync status of this device (`local` on a local-only device), re-rendering on every change. */
export function useSyncStatus(): SyncStatus {
  return useSyncExternalStore(subscribe, getSyncStatus, getSyncStatus);
}
