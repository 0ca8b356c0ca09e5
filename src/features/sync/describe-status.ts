// The words of the sync status, shared by the header badge and the storage panel's facts.
import type { SyncStatus } from '../../sync/status';

const changes = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'change' : 'changes'}`;

/** The full sentence: Synced / Syncing… / Offline, N changes waiting / Sync error. */
export function describeSyncStatus(status: SyncStatus): string {
  switch (status.state) {
    case 'synced':
      if (status.waiting > 0) return `${changes(status.waiting)} waiting`;
      // Set aside: the server kept failing on them; they go again when the app next starts.
      return status.setAside ? `Synced, ${changes(status.setAside)} set aside` : 'Synced';
    case 'syncing':
      return 'Syncing…';
    case 'offline':
      return status.waiting > 0 ? `Offline, ${changes(status.waiting)} waiting` : 'Offline';
    case 'error':
      return 'Sync error';
    default:
      return 'This device only';
  }
}

/** The short form for a phone's header: Offline · 3, 3 waiting. */
export function shortSyncStatus(status: SyncStatus): string {
  if (status.state === 'offline' && status.waiting > 0) return `Offline · ${status.waiting.toLocaleString('en-US')}`;
  if (status.state === 'error') return 'Error';
  if (status.state === 'synced' && status.waiting > 0) return `${status.waiting.toLocaleString('en-US')} waiting`;
  if (status.state === 'synced' && !status.waiting && status.setAside) return `Set aside · ${status.setAside.toLocaleString('en-US')}`;
  return describeSyncStatus(status);
}
