import { useEffect } from 'react';
import { useToast } from '../../components/toast/toast-context';
import { usePwa } from './use-pwa';

/** Tells the user once, after the first install, that the app now works without a network. */
export function OfflineReadyNotice() {
  const { offlineReady } = usePwa();
  const showToast = useToast();
  useEffect(() => {
    if (offlineReady)
      showToast(
        { title: 'Ready to work offline', description: 'Insight Exchange is saved on this device and opens without a connection.' },
        { whenIdle: true },
      );
  }, [offlineReady, showToast]);
  return null;
}
