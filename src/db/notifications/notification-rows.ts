// Notification rows on this device: their shape as the app shows them, and the writing of the
// notifications an operation's rule decided (src/shared/moderation.ts), inside that operation's
// transaction: on a local-only device only (a connected one gets them from the server).

import { db, type NotificationRow } from '../storage/schema';
import { collapses, type NewNotification, type Notification } from '../../shared/moderation';
import { isConnectedDevice } from '../ops/sync-meta';
import { newOperationId } from '../ops/uuid';

/** A notification as the app shows it: with its actor's role (the Admin badge; connected mode), null when unknown. */
export type ShownNotification = Notification & { actorRole: string | null };

/** A stored notification as the app shows it (without the row's bookkeeping). */
export function toNotification(row: Notification & { actorRole?: string | null }): ShownNotification {
  const { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt } = row;
  const shown = { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt, actorRole: row.actorRole ?? null };
  return row.count && row.count > 1 ? { ...shown, count: row.count } : shown;
}

/**
 * Writes notifications on a local-only device (a connected one gets them from the server only) and
 * returns their ids. Call it inside the readwrite transaction (which includes `notifications` and
 * `meta`) that applies the operation they tell of. Ids are random v4 UUIDs (uuid.ts: no secure
 * context needed, unlike crypto.randomUUID). A reply told to a watcher updates their unread
 * `watching` notification of the post instead, as the server's store does (moderation.ts, collapses);
 * only the ids of new rows are returned (what an Undo of the operation takes away).
 */
export async function writeNotifications(list: readonly NewNotification[], now = Date.now()): Promise<string[]> {
  if (list.length === 0 || (await isConnectedDevice())) return [];
  const fresh: NewNotification[] = [];
  for (const notification of list) {
    const [into] = collapses(notification) ? await unreadWatching(notification.recipientEmail, notification.postId) : [];
    if (!into) {
      fresh.push(notification);
      continue;
    }
    const { replyId, actor, postTitle } = notification;
    await db.notifications.put({ ...into, replyId, actor, postTitle, createdAt: now, count: (into.count ?? 1) + 1 });
  }
  const rows: NotificationRow[] = fresh.map(({ recipientEmail, actorEmail: _actorEmail, ...notification }) => ({
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

/** The member's unread `watching` notification of a reply in the post, if any (the one a further reply collapses into). */
const unreadWatching = (email: string, postId: number) =>
  db.notifications
    .where('[email+unread]')
    .equals([email, 1])
    .filter((row) => row.kind === 'watching' && row.postId === postId && row.replyId !== null)
    .toArray();
