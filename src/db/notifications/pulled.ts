// Writing the server's notifications into IndexedDB (connected mode): each is upserted by id when
// newer than what the device holds, with this device's outstanding readNotifications replayed on top
// (a notification read here stays read while that operation is outstanding). A refusal puts back the
// server's word. Runs inside the caller's readwrite transaction on notifications and outbox.

import { db, type NotificationRow, type OutboxRow } from '../storage/schema';
import type { WireNotification, WireReply } from '../../shared/protocol';
import type { Notification } from '../../shared/moderation';
import { NO_POST_ID } from '../ops/outbox';
import { definitionOf } from '../../shared/ops/registry';
import { newerThanStored } from '../storage/newer';
import { isOutstanding, replay } from '../ops/replay';
import { MemoryStore } from '../ops/memory-store';

/** An operation that marks the member's notifications read (its definition `touches` them: its `ids`). */
const readsNotifications = (row: OutboxRow) => definitionOf(row.op.type).touches === 'notifications';

/** The queued (or applied, not yet pulled) readNotifications operations of `email`. */
const readOperations = (email: string) =>
  db.outbox
    .where('postId')
    .equals(NO_POST_ID)
    .filter((row) => readsNotifications(row) && row.email === email)
    .sortBy('seq');

/** The reads of a notification still outstanding over the server's word on it. */
const outstandingFor = (notification: Notification, seq: number, ops: readonly OutboxRow[]) =>
  ops.filter(
    (row) => readsNotifications(row) && (row.op as { ids: readonly string[] }).ids.includes(notification.id) && isOutstanding(row, { seq }),
  );

/** When a notification shows as read: the server's word, with the outstanding reads replayed on top. */
async function shownReadAt(notification: Notification, owner: string, outstanding: readonly OutboxRow[]): Promise<number | null> {
  const store = new MemoryStore();
  store.notifications.set(notification.id, { ...notification, email: owner });
  await replay(store, outstanding);
  return store.notifications.get(notification.id)!.readAt;
}

const rowOf = (notification: Notification, owner: string, readAt: number | null, sync: NotificationRow['sync']): NotificationRow => ({
  ...notification,
  readAt,
  email: owner,
  unread: readAt === null ? 1 : 0,
  ...(sync ? { sync } : {}),
});

/** Stores this member's pulled notifications (`owner`: whose they are); returns how many rows changed. */
export async function storeServerNotifications(wires: readonly WireNotification[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.notifications.bulkGet(wires.map((wire) => wire.id));
  const ops = await readOperations(owner);
  const rows: NotificationRow[] = [];
  for (const [wire, current] of newerThanStored(wires, stored)) {
    const { seq, ...notification } = wire;
    // No await when nothing is outstanding (most notifications): Dexie follows a transaction across only so many.
    const outstanding = outstandingFor(notification, seq, ops);
    const readAt = outstanding.length === 0 ? notification.readAt : await shownReadAt(notification, owner, outstanding);
    // Read here before the server heard of it: the time it was read here stands.
    rows.push(
      rowOf(notification, owner, readAt !== null && wire.readAt === null ? (current?.readAt ?? readAt) : readAt, {
        seq,
        readAt: wire.readAt,
      }),
    );
  }
  if (rows.length > 0) await db.notifications.bulkPut(rows);
  return rows.length;
}

/**
 * The member's notifications about replies a pull says were deleted go, as the server's pull no
 * longer sends them (maySeeNotification): never one left unread here that no device can mark read.
 * A hidden reply's stay (an admin may restore it, and the server does not send them again then); a
 * "your reply was hidden" notice names its hidden reply on purpose.
 */
export async function dropUnreadableReplyNotes(replies: readonly WireReply[], email: string): Promise<void> {
  const gone = new Set(replies.filter((reply) => reply.state === 'deleted').map((reply) => reply.id));
  if (gone.size === 0) return;
  await db.notifications
    .filter((row) => row.email === email && row.replyId !== null && gone.has(row.replyId) && row.kind !== 'replyHidden')
    .delete();
}

/** A refused readNotifications: the notifications show the server's read state again, with what else is outstanding on top. */
export async function restoreServerReads(ids: readonly string[]): Promise<void> {
  const rows = (await db.notifications.bulkGet([...ids])).filter((row): row is NotificationRow => row !== undefined);
  const back: NotificationRow[] = [];
  for (const row of rows) {
    const ops = await readOperations(row.email);
    const server = { ...row, readAt: row.sync ? row.sync.readAt : null };
    const outstanding = outstandingFor(server, row.sync?.seq ?? 0, ops);
    const readAt = outstanding.length === 0 ? server.readAt : await shownReadAt(server, row.email, outstanding);
    back.push(rowOf(row, row.email, readAt, row.sync));
  }
  if (back.length > 0) await db.notifications.bulkPut(back);
}
