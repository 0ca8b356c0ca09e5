// The signed-in member's notifications on this device. CONTRACT (issue 22): the signatures below
// are fixed; the data-layer work fills in the bodies. Connected: they arrive with pulls (the live
// stream wakes them); reading queues `readNotifications`. Local-only: written by the operations
// themselves (shared/moderation.ts rules) for the members of this device, live in every tab.

import type { Notification } from '../../shared/moderation';

/** The signed-in member's notifications, newest first. */
export async function listNotifications(limit = 50): Promise<Notification[]> {
  void limit;
  throw new Error('listNotifications: not built yet (issue 22 data layer)');
}

/** How many of the signed-in member's notifications are unread. */
export async function countUnread(): Promise<number> {
  throw new Error('countUnread: not built yet (issue 22 data layer)');
}

/** Marks these notifications read (on every device of the member, once synced). */
export async function markRead(ids: readonly string[]): Promise<void> {
  void ids;
  throw new Error('markRead: not built yet (issue 22 data layer)');
}

/** Marks every unread notification on this device read; returns how many. */
export async function markAllRead(): Promise<number> {
  throw new Error('markAllRead: not built yet (issue 22 data layer)');
}

/** Whether the signed-in member turned system notifications on for this device (never asked on load). */
export async function systemNotificationsOn(): Promise<boolean> {
  throw new Error('systemNotificationsOn: not built yet (issue 22 data layer)');
}

/** Turns system notifications on or off for the signed-in member on this device (a per-device choice: the browser's permission is too). */
export async function setSystemNotifications(on: boolean): Promise<void> {
  void on;
  throw new Error('setSystemNotifications: not built yet (issue 22 data layer)');
}
