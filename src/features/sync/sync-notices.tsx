import { useEffect } from 'react';
import { useToast } from '../../components/toast/toast-context';
import { onSyncNotice } from '../../sync/status';

/** Shows, as error toasts, what sync had to undo on this device and why (a review another admin made first). */
export function SyncNotices() {
  const showToast = useToast();
  useEffect(() => {
    const stop = onSyncNotice((notice) => showToast({ ...notice, variant: 'error' }));
    return () => {
      stop();
    };
  }, [showToast]);
  return null;
}
