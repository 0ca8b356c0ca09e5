import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconChecks } from '@tabler/icons-react';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { markAllRead } from '../../db/notifications/notifications';
import { plural } from '../../lib/format';
import { useUnreadCount } from './use-notifications';

/** "Mark all as read": off when nothing is unread. */
export function MarkAllRead() {
  const unread = useUnreadCount();
  const [busy, setBusy] = useState(false);
  const showToast = useToast();
  const run = async () => {
    setBusy(true);
    try {
      const count = await markAllRead();
      showToast({ title: 'All caught up', description: `${plural(count, 'notification')} marked as read.` });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline-primary" disabled={busy || !unread} onClick={() => void run()}>
      <IconChecks aria-hidden="true" size={18} />
      <span>Mark all as read</span>
    </Button>
  );
}
