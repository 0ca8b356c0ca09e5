import { IconWifiOff } from '@tabler/icons-react';
import { useOnline } from '../../hooks/use-online';

/** Shown while offline: everything still works, so it informs and never warns. */
export function OfflineBadge() {
  const online = useOnline();
  if (online) return null;
  return (
    <span className="badge app-offline-badge" role="status" title="You're offline. Everything you do is saved on this device.">
      <IconWifiOff aria-hidden="true" size={14} />
      <span>Offline</span>
    </span>
  );
}
