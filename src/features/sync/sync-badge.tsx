import { IconAlertTriangle, IconCloudCheck, IconCloudOff, IconCloudUpload, IconRefresh } from '@tabler/icons-react';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { retrySync } from '../../sync/status';
import { describeSyncStatus, shortSyncStatus } from './describe-status';

// Chosen at render, never from a map built as the module loads: the icons' chunk can load after
// this one (a cycle between the header's chunks), and a map made then held undefined (a crash).
function SyncIcon({ state }: { state: 'synced' | 'syncing' | 'offline' | 'error' }) {
  if (state === 'synced') return <IconCloudCheck aria-hidden="true" size={16} />;
  if (state === 'syncing') return <IconCloudUpload aria-hidden="true" size={16} />;
  if (state === 'offline') return <IconCloudOff aria-hidden="true" size={16} />;
  return <IconAlertTriangle aria-hidden="true" size={16} />;
}

/**
 * The header's sync status on a connected device, named for screen readers ("Sync status: …");
 * with a Retry button after an error. Nothing on a local-only device.
 */
export function SyncBadge() {
  const status = useSyncStatus();
  if (status.state === 'local') return null;
  const full = describeSyncStatus(status);
  const title = status.state === 'error' && status.message ? `${full}: ${status.message}` : full;
  return (
    <span className={`app-sync app-sync-${status.state}`}>
      <span role="status" aria-label={`Sync status: ${title}`} title={title} className="app-sync-label">
        <SyncIcon state={status.state} />
        {/* The short words up to xl: an admin's header keeps one row at 820 px (issue 59, item 7), and
            from 992 px, where the brand shows its name, "Offline, 3 changes waiting" wrapped it. */}
        <span className="d-xl-none">{shortSyncStatus(status)}</span>
        <span className="d-none d-xl-inline">{full}</span>
      </span>
      {status.state === 'error' && (
        <button type="button" className="btn btn-sm app-sync-retry" onClick={retrySync} aria-label="Retry sync">
          <IconRefresh aria-hidden="true" size={14} />
          <span className="d-none d-xl-inline">Retry</span>
        </button>
      )}
    </span>
  );
}
