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
 * never shown); a notification seen once is never shown again, even if the page is hidden later.
 */
export function nextSystemNotifications(seen: ReadonlySet<string> | null, list: readonly Notification[], hidden: boolean): WatchStep {
  const all = new Set(seen ?? []);
  const fresh = list.filter((notification) => !all.has(notification.id));
  for (const notification of list) all.add(notification.id);
  if (seen === null || !hidden) return { show: [], seen: all };
  const show = fresh.filter((notification) => notification.readAt === null).sort((a, b) => a.createdAt - b.createdAt);
  return { show, seen: all };
}
