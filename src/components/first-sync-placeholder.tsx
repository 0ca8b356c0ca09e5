import { IconCloudOff } from '@tabler/icons-react';
import type { FirstSync } from '../hooks/use-first-sync';
import { EmptyState } from './empty-state';
import { PageLoading } from './page-loading';

/**
 * What an empty list shows before a connected device's first sync has finished (useFirstSync): it
 * is loading, or, offline or failing, waiting for the server, never "nothing here", which a new
 * device (or an admin reading an empty queue) would take for the truth. One live region holds
 * either: while retries back off the state goes back and forth, and only its words change.
 */
export function FirstSyncPlaceholder({ firstSync, loading, what }: { firstSync: FirstSync | undefined; loading: string; what: string }) {
  return (
    <div role="status" aria-live="polite">
      {firstSync === 'stalled' ? (
        <EmptyState icon={<IconCloudOff size={40} />} title="Not synced yet">
          This device has not reached the server yet. {what} appear here once it does.
        </EmptyState>
      ) : (
        <PageLoading label={loading} live={false} />
      )}
    </div>
  );
}
