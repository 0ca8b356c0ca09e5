import { IconCloudUp } from '@tabler/icons-react';
import './unsent-badge.scss';

/** "Not sent yet": written or changed on this device and still waiting in its outbox (a reply, a post; issue 40). */
export function UnsentBadge() {
  return (
    <span className="badge app-unsent" title="Kept on this device; it is sent when the connection returns.">
      <IconCloudUp aria-hidden="true" size={13} />
      Not sent yet
    </span>
  );
}
