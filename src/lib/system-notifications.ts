// Which notifications become system notifications: only ones that arrive (were not in the list
// before) unread while the page is hidden. No React, no DOM: the watcher feeds it what it sees.
import type { Notification } from '../shared/moderation';

export interface WatchStep {
  /** Show these now (oldest first). */
  show: Notification[];
  /** Every id seen so far, the new list's included. */
  seen: ReadonlySet<string>;
}

/**
 * The watcher's decision for a new list: `seen` null is the first look (what is there already is
 * never shown); a notification seen once is never shown again, even if the page is hidden later;
 * one made before `since` (ms) is never shown.
 */
export function nextSystemNotifications(
  seen: ReadonlySet<string> | null,
  list: readonly Notification[],
  hidden: boolean,
  since = -Infinity,
): WatchStep {
  const all = new Set(seen ?? []);
  const fresh = list.filter((notification) => !all.has(notification.id));
  for (const notification of list) all.add(notification.id);
  if (seen === null || !hidden) return { show: [], seen: all };
  // Only what happened since the watcher started: a pull from the start (a new member on the
  // device, a new schema) brings old unread ones that must not pop up as a burst.
  const show = fresh
    .filter((notification) => notification.readAt === null && notification.createdAt >= since)
    .sort((a, b) => a.createdAt - b.createdAt);
  return { show, seen: all };
}
