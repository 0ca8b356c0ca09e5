// The signed-in member's notifications on this device: the list, the unread count, and reading them
// (the `readNotifications` operation). Connected: they arrive with pulls only (the live stream wakes
// them; notifications/pulled.ts stores them). Local-only: written by the operations themselves
// (notification-rows.ts), for the members of this device, so they show live in every tab.

import Dexie from 'dexie';
import { db, type NotificationRow } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { requireSession } from '../members/guards';
import { readStoredSession } from '../members/session';
import { META_KEY_PREFIXES } from '../contracts';
import { MAX_READ_IDS } from '../../shared/moderation';
import { toNotification, type ShownNotification } from './notification-rows';
import { OP_TABLES } from '../ops/op-tables';
import { loadRunner } from '../ops/run-later';
import type { Session } from '../types';

const run = withDataErrors;

const mine = (email: string) => db.notifications.where('[email+createdAt]').between([email, Dexie.minKey], [email, Dexie.maxKey]);

/** The signed-in member's notifications, newest first (none when signed out). */
export async function listNotifications(limit = 50): Promise<ShownNotification[]> {
  const session = readStoredSession();
  if (!session) return [];
  const rows = await run(() => mine(session.email).reverse().limit(limit).toArray());
  return rows.map(toNotification);
}

/** How many of the signed-in member's notifications are unread (an index count; 0 when signed out). */
export async function countUnread(): Promise<number> {
  const session = readStoredSession();
  if (!session) return 0;
  return run(() => db.notifications.where('[email+unread]').equals([session.email, 1]).count());
}

/** Marks the member's unread rows among `rows` read: `readNotifications` operations of MAX_READ_IDS ids at most. */
async function readRows(
  rows: readonly (NotificationRow | undefined)[],
  session: Session,
  { applyOperation }: Awaited<ReturnType<typeof loadRunner>>,
): Promise<number> {
  const unread = rows.filter((row): row is NotificationRow => row !== undefined && row.email === session.email && row.unread === 1);
  const ids = unread.map((row) => row.id);
  for (let start = 0; start < ids.length; start += MAX_READ_IDS) {
    await applyOperation(session, 'readNotifications', { ids: ids.slice(start, start + MAX_READ_IDS) });
  }
  return unread.length;
}

/** Marks these notifications read (on every device of the member, once synced); ids of others or already read are skipped. */
export async function markRead(ids: readonly string[]): Promise<void> {
  const session = requireSession();
  const runner = await loadRunner();
  const read = await run(() =>
    db.transaction('rw', OP_TABLES(), async () => readRows(await db.notifications.bulkGet([...ids]), session, runner)),
  );
  // A local write: the engine sends the queued read at once.
  if (read > 0) emitLocalChange('op:readNotifications');
}

/**
 * Marks the member's unread notifications about one post read, as opening the post reads them (a
 * trial: the bell still counted three replies after the thread was read); returns how many. Nothing
 * is loaded or queued when none is unread.
 */
export async function markPostRead(postId: number): Promise<number> {
  const about = await unreadAbout(postId);
  if (about.length === 0) return 0;
  await markRead(about);
  return about.length;
}

/** The ids of the signed-in member's unread notifications about post `postId` (none when nobody is signed in). */
export async function unreadAbout(postId: number): Promise<string[]> {
  const session = readStoredSession();
  if (!session) return [];
  return run(() =>
    db.notifications
      .where('[email+unread]')
      .equals([session.email, 1])
      .filter((row) => row.postId === postId)
      .primaryKeys(),
  );
}

/** Marks every unread notification on this device read; returns how many. */
export async function markAllRead(): Promise<number> {
  const session = requireSession();
  const runner = await loadRunner();
  const read = await run(() =>
    db.transaction('rw', OP_TABLES(), async () =>
      readRows(await db.notifications.where('[email+unread]').equals([session.email, 1]).toArray(), session, runner),
    ),
  );
  if (read > 0) emitLocalChange('op:readNotifications');
  return read;
}

const systemKey = (email: string) => `${META_KEY_PREFIXES.systemNotifications}${email.trim().toLowerCase()}`;

/** Whether the signed-in member turned system notifications on for this device (never asked on load). */
export async function systemNotificationsOn(): Promise<boolean> {
  const session = readStoredSession();
  if (!session) return false;
  const row = await run(() => db.meta.get(systemKey(session.email)));
  return row?.value === true;
}

/** Turns system notifications on or off for the signed-in member on this device (a per-device choice: the browser's permission is too). */
export async function setSystemNotifications(on: boolean): Promise<void> {
  const session = requireSession();
  await run(async () => {
    if (on) await db.meta.put({ key: systemKey(session.email), value: true });
    else await db.meta.delete(systemKey(session.email));
  });
}
