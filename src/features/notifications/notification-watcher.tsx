import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { listNotifications } from '../../db/notifications/notifications';
import { nextSystemNotifications } from '../../lib/system-notifications';
import { notificationDetail, notificationPath, notificationTitle, type Notification } from '../../shared/moderation';
import { useSystemNotificationsOn } from './use-notifications';

/** How far the server's clock may be behind this device's without a new notification being missed. */
const CLOCK_SLACK_MS = 5 * 60_000;

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
  // Started a little before now: the server's clock may be behind this device's.
  const [since] = useState(() => Date.now() - CLOCK_SLACK_MS);
  useEffect(() => {
    if (!list) return;
    const step = nextSystemNotifications(seen.current, list, document.visibilityState === 'hidden', since);
    seen.current = step.seen;
    if (!granted()) return;
    for (const notification of step.show) void showSystemNotification(notification).catch(() => undefined);
  }, [list, since]);
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
