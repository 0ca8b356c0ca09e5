import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { listNotifications } from '../../db/notifications/notifications';
import { nextSystemNotifications } from '../../lib/system-notifications';
import { notificationDetail, notificationPath, notificationTitle, type Notification } from '../../shared/moderation';
import { useSystemNotificationsOn } from './use-notifications';

const granted = () => typeof window.Notification === 'function' && window.Notification.permission === 'granted';

/** Shows one notification through the service worker (its tag dedupes across tabs). */
async function showSystemNotification(notification: Notification): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const title = notificationTitle(notification);
  const options = { body: notificationDetail(notification), tag: notification.id, data: { url: notificationPath(notification) } };
  if (registration) await registration.showNotification(title, options);
}

function Watcher() {
  const list = useLiveQuery(() => listNotifications(20), []);
  const seen = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!list) return;
    const step = nextSystemNotifications(seen.current, list, document.visibilityState === 'hidden');
    seen.current = step.seen;
    if (!granted()) return;
    for (const notification of step.show) void showSystemNotification(notification).catch(() => undefined);
  }, [list]);
  return null;
}

/**
 * While system notifications are on (and the browser allows them), each new unread notification
 * that arrives while the app is in the background becomes a system notification.
 */
export function NotificationWatcher() {
  const on = useSystemNotificationsOn();
  return on && granted() ? <Watcher /> : null;
}
