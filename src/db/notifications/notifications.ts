// The signed-in member's notifications on this device. Connected: they arrive with pulls only (the
// live stream wakes them; db/sync/server-moderation.ts stores them); reading queues
// `readNotifications`. Local-only: written by the operations themselves (shared/moderation.ts
// rules, writeNotifications below) in their own transaction, for the members of this device, so
// they show live in every tab.

import Dexie from 'dexie';
import { db, type NotificationRow } from '../core/schema';
import { withDataErrors } from '../core/errors';
import { emitLocalChange } from '../core/changes';
import { requireSession } from '../accounts/guards';
import { readStoredSession } from '../accounts/session';
import { META_KEY_PREFIXES } from '../contracts';
import { MAX_READ_IDS, type NewNotification, type Notification } from '../../shared/moderation';
import { queueOperation, READ_NOTIFICATIONS_POST_ID } from '../sync/outbox';
import { isConnectedDevice } from '../sync/sync-meta';
import { newOperationId } from '../sync/uuid';

const run = withDataErrors;

/** A stored notification as the app shows it (without the row's bookkeeping). */
export function toNotification(row: Notification): Notification {
  const { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt } = row;
  return { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt };
}

/**
 * Writes notifications on a local-only device (a connected one gets them from the server only) and
 * returns their ids. Call it inside the readwrite transaction (which includes `notifications` and
 * `meta`) that applies the operation they tell of. Ids are random v4 UUIDs (uuid.ts: no secure
 * context needed, unlike crypto.randomUUID).
 */
export async function writeNotifications(list: readonly NewNotification[], now = Date.now()): Promise<string[]> {
  if (list.length === 0 || (await isConnectedDevice())) return [];
  const rows: NotificationRow[] = list.map(({ recipientEmail, ...notification }) => ({
    ...notification,
    id: newOperationId(),
    createdAt: now,
    readAt: null,
    email: recipientEmail,
    unread: 1,
  }));
  await db.notifications.bulkAdd(rows);
  return rows.map((row) => row.id);
}

const mine = (email: string) => db.notifications.where('[email+createdAt]').between([email, Dexie.minKey], [email, Dexie.maxKey]);

/** The signed-in member's notifications, newest first (none when signed out). */
export async function listNotifications(limit = 50): Promise<Notification[]> {
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

/** Marks the member's unread rows among `rows` read and queues the reads for the server (in chunks of MAX_READ_IDS). */
async function readRows(rows: readonly (NotificationRow | undefined)[], email: string, now: number): Promise<number> {
  const unread = rows.filter((row): row is NotificationRow => row !== undefined && row.email === email && row.unread === 1);
  if (unread.length === 0) return 0;
  await db.notifications.bulkPut(unread.map((row) => ({ ...row, readAt: now, unread: 0 as const })));
  const ids = unread.map((row) => row.id);
  for (let start = 0; start < ids.length; start += MAX_READ_IDS) {
    await queueOperation({ type: 'readNotifications', ids: ids.slice(start, start + MAX_READ_IDS) }, READ_NOTIFICATIONS_POST_ID, { email });
  }
  return unread.length;
}

const READ_TABLES = [db.notifications, db.outbox, db.meta] as const;

/** Marks these notifications read (on every device of the member, once synced); ids of others or already read are skipped. */
export async function markRead(ids: readonly string[]): Promise<void> {
  const session = requireSession();
  const read = await run(() =>
    db.transaction('rw', READ_TABLES, async () => readRows(await db.notifications.bulkGet([...ids]), session.email, Date.now())),
  );
  // A local write: the engine sends the queued read at once.
  if (read > 0) emitLocalChange('notifications-read');
}

/** Marks every unread notification on this device read; returns how many. */
export async function markAllRead(): Promise<number> {
  const session = requireSession();
  const read = await run(() =>
    db.transaction('rw', READ_TABLES, async () =>
      readRows(await db.notifications.where('[email+unread]').equals([session.email, 1]).toArray(), session.email, Date.now()),
    ),
  );
  if (read > 0) emitLocalChange('notifications-read');
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
