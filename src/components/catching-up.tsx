import { useEffect, useState } from 'react';
import { Spinner } from './spinner';
import { useFirstSyncSettled } from '../hooks/use-first-sync-settled';
import { useSyncStatus } from '../hooks/use-sync-status';

/** How long a sync runs before the line shows (a quick one never flickers it). */
const SHOW_AFTER_MS = 400;

/**
 * "Catching up with the server…": on a screen whose list a sync may change (My Posts,
 * Notifications), while this device is bringing in what happened elsewhere: the first sync since the
 * app opened, or one that runs longer than a moment. Nothing on a local-only device (issue 40: a
 * screen said "Pending" for seconds after the review, with no sign that news was on its way).
 */
export function CatchingUp() {
  const { state } = useSyncStatus();
  const settled = useFirstSyncSettled();
  const catchingUp = state === 'syncing' || (!settled && state !== 'local');
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!catchingUp) return undefined;
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [catchingUp]);
  return (
    <p className="small text-body-secondary m-0" role="status">
      {catchingUp && shown && (
        <span className="d-inline-flex align-items-center mb-3">
          <Spinner className="me-2" />
          Catching up with the server…
        </span>
      )}
    </p>
  );
}
