import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconBellRinging } from '@tabler/icons-react';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { setSystemNotifications } from '../../db/notifications/notifications';
import { useSystemNotificationsOn } from './use-notifications';

type Permission = NotificationPermission | 'unsupported';

const currentPermission = (): Permission =>
  typeof window.Notification === 'function' && 'serviceWorker' in navigator ? window.Notification.permission : 'unsupported';

/**
 * System notifications on this device: the browser is asked only when the member presses "Turn on
 * system notifications"; the state reads on, blocked by the browser, or not supported.
 */
export function SystemNotifications() {
  const on = useSystemNotificationsOn();
  const [permission, setPermission] = useState<Permission>(currentPermission);
  const [busy, setBusy] = useState(false);
  const showToast = useToast();

  const change = async (turnOn: boolean) => {
    setBusy(true);
    try {
      if (turnOn) {
        const answer = await window.Notification.requestPermission();
        setPermission(answer);
        if (answer !== 'granted') return;
      }
      await setSystemNotifications(turnOn);
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  let state: string;
  if (permission === 'unsupported') state = 'Not supported in this browser.';
  else if (permission === 'denied')
    state = "Blocked by the browser. Allow notifications for this site in the browser's settings to turn them on.";
  else if (on && permission === 'granted')
    state = 'On: news that arrives while the app is in the background shows as a system notification.';
  else state = 'Off.';

  return (
    <section className="card app-system-notifications" aria-labelledby="system-notifications-title">
      <div className="card-body">
        <h2 id="system-notifications-title" className="h6 d-flex align-items-center gap-2">
          <IconBellRinging aria-hidden="true" size={18} />
          System notifications
        </h2>
        <p className="small text-body-secondary" role="status">
          {state}
        </p>
        {permission !== 'unsupported' &&
          on !== undefined &&
          (on ? (
            <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => void change(false)}>
              Turn off system notifications
            </Button>
          ) : (
            permission !== 'denied' && (
              <Button size="sm" variant="primary" disabled={busy} onClick={() => void change(true)}>
                Turn on system notifications
              </Button>
            )
          ))}
      </div>
    </section>
  );
}
