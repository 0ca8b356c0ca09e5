import { useLiveQuery } from 'dexie-react-hooks';
import { countUnread, listNotifications, systemNotificationsOn } from '../../db/notifications/notifications';

/** The signed-in member's notifications, newest first, live in every tab. */
export function useNotifications() {
  return useLiveQuery(() => listNotifications(), []);
}

/** How many are unread (the header's badge). */
export function useUnreadCount(enabled = true): number | undefined {
  return useLiveQuery(() => (enabled ? countUnread() : undefined), [enabled]);
}

/** Whether the member turned system notifications on for this device. */
export function useSystemNotificationsOn(): boolean | undefined {
  return useLiveQuery(() => systemNotificationsOn(), []);
}
