import { useEffect, useState } from 'react';
import { isConnected } from '../sync/start';
import { useSyncStatus } from './use-sync-status';

/**
 * False while a connected device's first sync may still bring what a screen looks for (the mode
 * is not decided yet, or the device is syncing for the first time); true once it has settled
 * (synced, offline, error) or on a local-only device. Once true it stays true for the screen.
 */
export function useFirstSyncSettled(): boolean {
  const status = useSyncStatus();
  const [local, setLocal] = useState(false);
  const [settledOnce, setSettledOnce] = useState(false);
  useEffect(() => {
    let live = true;
    isConnected().then(
      (connected) => live && setLocal(!connected),
      () => live && setLocal(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const settled =
    status.state === 'synced' ||
    status.state === 'offline' ||
    status.state === 'error' ||
    // A later sync (this device has synced before) brings changes, not the device's first copy.
    (status.state === 'syncing' && status.lastSyncAt !== undefined) ||
    (status.state === 'local' && local);
  if (settled && !settledOnce) setSettledOnce(true);
  return settled || settledOnce;
}
