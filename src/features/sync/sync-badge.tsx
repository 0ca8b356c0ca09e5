import { IconAlertTriangle, IconCloudCheck, IconCloudOff, IconCloudUpload, IconRefresh } from '@tabler/icons-react';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { retrySync } from '../../sync/status';
import { describeSyncStatus, shortSyncStatus } from './describe-status';

const ICONS = { synced: IconCloudCheck, syncing: IconCloudUpload, offline: IconCloudOff, error: IconAlertTriangle } as const;

/**
 * The header's sync status on a connected device, named for screen readers ("Sync status: …");
 * with a Retry button after an error. Nothing on a local-only device.
 */
export function SyncBadge() {
  const status = useSyncStatus();
  if (status.state === 'local') return null;
  const Icon = ICONS[status.state];
  const full = describeSyncStatus(status);
  const title = status.state === 'error' && status.message ? `${full}: ${status.message}` : full;
  return (
    <span className={`app-sync app-sync-${status.state}`}>
      <span role="status" aria-label={`Sync status: ${title}`} title={title} className="app-sync-label">
        <Icon aria-hidden="true" size={16} />
        <span className="d-md-none">{shortSyncStatus(status)}</span>
        <span className="d-none d-md-inline">{full}</span>
      </span>
      {status.state === 'error' && (
        <button type="button" className="btn btn-sm app-sync-retry" onClick={retrySync} aria-label="Retry sync">
          <IconRefresh aria-hidden="true" size={14} />
          <span className="d-none d-md-inline">Retry</span>
        </button>
      )}
    </span>
  );
}
