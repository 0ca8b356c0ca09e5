// Display formatting shared by every screen: counts, post dates and text cut for display.

import { LIMITS } from '../shared/post-rules';
import { formatDay, formatDayTime } from '../shared/dates';

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return numberFormat.format(value);
}

/** "1 like" / "2 likes". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * The most characters of each post field a screen renders. A huge run without spaces makes the
 * browser's line breaking take tens of seconds, so every displayed field is cut (the stored value
 * stays whole, and search still reads all of it).
 */
export const DISPLAY_CHARS = { title: LIMITS.title, author: LIMITS.name, category: 60, date: 60, tag: 60, content: 1_500 } as const;

/**
 * `value` cut to `max` characters with an ellipsis; never splits a surrogate pair, and never leaves
 * the ellipsis after a space, a line break or a stop ("differ.…"): those are dropped first.
 */
export function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const end = /[\uD800-\uDBFF]/u.test(value.charAt(max - 1)) ? max - 1 : max;
  const kept = value.slice(0, end).replace(/[\s.,;:!?…]+$/u, '');
  return `${kept || value.slice(0, end)}…`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const EARLIEST_TIMESTAMP = Date.UTC(2001, 8, 9);

/**
 * When a post was written. Post ids are creation timestamps, so the age is computed from the id
 * and stays current; posts with other ids (older builds) show their stored `date` text.
 */
export function formatPostDate(post: { id: number; date: string }, now = Date.now()): string {
  if (post.id < EARLIEST_TIMESTAMP || now - post.id < -DAY) return clip(post.date, DISPLAY_CHARS.date) || 'Some time ago';
  return formatAge(post.id, now);
}

/** How long ago `timestamp` (ms) was: "Just now", "5 minutes ago", … then the date after 30 days. */
export function formatAge(timestamp: number, now = Date.now()): string {
  const age = now - timestamp;
  if (age < MINUTE) return 'Just now';
  if (age < HOUR) return plural(Math.floor(age / MINUTE), 'minute') + ' ago';
  if (age < DAY) return plural(Math.floor(age / HOUR), 'hour') + ' ago';
  if (age < 30 * DAY) return plural(Math.floor(age / DAY), 'day') + ' ago';
  return formatDay(timestamp);
}

/** The full date and time of `timestamp` (ms), for a title beside a relative time: the one format (shared/dates). */
export function formatFullDate(timestamp: number): string {
  return formatDayTime(timestamp);
}

/** Up to two initials of a name, for avatars. */
export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => Array.from(word)[0] ?? '')
    .join('');
  return (Array.from(letters).slice(0, 2).join('') || '?').toUpperCase();
}

/** Bytes as "12.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A span of time in human units: "under a minute", "12 min", "3 h 5 min", "2 days 4 h". */
export function formatDuration(ms: number): string {
  if (ms < MINUTE) return 'under a minute';
  if (ms < HOUR) return `${Math.round(ms / MINUTE)} min`;
  if (ms < DAY) {
    const hours = Math.floor(ms / HOUR);
    const minutes = Math.round((ms - hours * HOUR) / MINUTE);
    return minutes > 0 && minutes < 60 ? `${hours} h ${minutes} min` : `${Math.round(ms / HOUR)} h`;
  }
  const days = Math.floor(ms / DAY);
  const hours = Math.round((ms - days * DAY) / HOUR);
  return `${plural(days, 'day')}${hours > 0 && hours < 24 ? ` ${hours} h` : ''}`;
}
