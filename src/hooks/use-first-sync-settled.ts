import { useEffect, useState } from 'react';
import { isConnected } from '../sync/start';
import { useSyncStatus } from './use-sync-status';

/** The longest a screen waits for a sync that never reports (its code could not load, say). */
const LONGEST_WAIT_MS = 15_000;

/**
 * False while a sync may still bring what a screen looks for: the mode is not decided yet, or a
 * connected device is syncing; true once the sync has settled (synced, offline, error), on a
 * local-only device, or after LONGEST_WAIT_MS. Once true it stays true for the screen (a later
 * sync does not bring the spinner back: live reads show what it brings).
 */
export function useFirstSyncSettled(): boolean {
  const { state } = useSyncStatus();
  const [local, setLocal] = useState(false);
  const [settledOnce, setSettledOnce] = useState(false);
  useEffect(() => {
    let live = true;
    isConnected().then(
      (connected) => live && setLocal(!connected),
      () => live && setLocal(true),
    );
    const timer = setTimeout(() => setSettledOnce(true), LONGEST_WAIT_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  const settled = state === 'synced' || state === 'offline' || state === 'error' || (state === 'local' && local);
  if (settled && !settledOnce) setSettledOnce(true);
  return settled || settledOnce;
}
