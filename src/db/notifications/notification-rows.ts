// Notification rows on this device: their shape as the app shows them, and the writing of the
// notifications an operation's rule decided (src/shared/moderation.ts), inside that operation's
// transaction: on a local-only device only (a connected one gets them from the server).

import { db, type NotificationRow } from '../storage/schema';
import type { NewNotification, Notification } from '../../shared/moderation';
import { isConnectedDevice } from '../ops/sync-meta';
import { newOperationId } from '../ops/uuid';

/** A notification as the app shows it: with its actor's role (the Admin badge; connected mode), null when unknown. */
export type ShownNotification = Notification & { actorRole: string | null };

/** A stored notification as the app shows it (without the row's bookkeeping). */
export function toNotification(row: Notification & { actorRole?: string | null }): ShownNotification {
  const { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt } = row;
  return { id, kind, postId, replyId, actor, postTitle, reason, createdAt, readAt, actorRole: row.actorRole ?? null };
}

/**
 * Writes notifications on a local-only device (a connected one gets them from the server only) and
 * returns their ids. Call it inside the readwrite transaction (which includes `notifications` and
 * `meta`) that applies the operation they tell of. Ids are random v4 UUIDs (uuid.ts: no secure
 * context needed, unlike crypto.randomUUID).
 */
export async function writeNotifications(list: readonly NewNotification[], now = Date.now()): Promise<string[]> {
  if (list.length === 0 || (await isConnectedDevice())) return [];
  const rows: NotificationRow[] = list.map(({ recipientEmail, actorEmail: _actorEmail, ...notification }) => ({
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
