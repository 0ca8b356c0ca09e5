// Writing the server's notifications and flags into IndexedDB (connected mode): each is upserted
// by id when newer than what the device holds, with this device's outstanding operations on top
// (a notification read here stays read while its readNotifications is outstanding; an item's flags
// dismissed here stay dismissed while its dismissFlags is). A refusal puts back the server's word.
// Every function here runs inside the caller's readwrite transaction on notifications, flags and outbox.

import { db, type FlagRow, type NotificationRow, type OutboxRow } from '../core/schema';
import { flagRow } from '../core/flag-rows';
import { targetKey, type FlagTarget } from '../../shared/moderation';
import type { WireFlag, WireNotification } from '../../shared/protocol';
import { READ_NOTIFICATIONS_POST_ID } from './outbox';
import { isOutstanding } from './overlay';

/** The queued (or applied, not yet pulled) readNotifications operations. */
const readOperations = () =>
  db.outbox
    .where('postId')
    .equals(READ_NOTIFICATIONS_POST_ID)
    .filter((row) => row.op.type === 'readNotifications')
    .toArray();

/** When this device read the notification, if an operation saying so is outstanding over `seq`. */
function readHere(id: string, seq: number, ops: readonly OutboxRow[]): number | undefined {
  const op = ops.find((row) => row.op.type === 'readNotifications' && row.op.ids.includes(id) && isOutstanding(row, { seq }));
  return op ? (op.at ?? Date.now()) : undefined;
}

/** Stores this member's pulled notifications (`owner`: whose they are); returns how many rows changed. */
export async function storeServerNotifications(wires: readonly WireNotification[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.notifications.bulkGet(wires.map((wire) => wire.id));
  const ops = await readOperations();
  const rows: NotificationRow[] = [];
  for (const [index, wire] of wires.entries()) {
    const current = stored[index];
    if (current?.sync && current.sync.seq >= wire.seq) continue;
    const { seq, ...notification } = wire;
    const readAt = wire.readAt ?? (readHere(wire.id, seq, ops) !== undefined ? (current?.readAt ?? readHere(wire.id, seq, ops)!) : null);
    rows.push({ ...notification, readAt, email: owner, unread: readAt === null ? 1 : 0, sync: { seq, readAt: wire.readAt } });
  }
  if (rows.length > 0) await db.notifications.bulkPut(rows);
  return rows.length;
}

/** True when this device's dismissal of `target`'s flags is outstanding over `seq`. */
const dismissedHere = (target: FlagTarget, seq: number, ops: readonly OutboxRow[]) =>
  ops.some(
    (row) =>
      row.op.type === 'dismissFlags' &&
      row.op.postId === target.postId &&
      (row.op.replyId ?? null) === (target.replyId ?? null) &&
      isOutstanding(row, { seq }),
  );

/** Stores pulled flags (or one an answer carries); returns how many rows changed. */
export async function storeServerFlags(wires: readonly WireFlag[]): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.flags.bulkGet(wires.map((wire) => wire.id));
  const ops = await db.outbox
    .where('postId')
    .anyOf([...new Set(wires.map((wire) => wire.postId))])
    .toArray();
  const rows: FlagRow[] = [];
  for (const [index, wire] of wires.entries()) {
    const current = stored[index];
    if (current?.sync && current.sync.seq >= wire.seq) continue;
    const { seq, ...flag } = wire;
    const state = flag.state === 'open' && dismissedHere(flag, seq, ops) ? 'dismissed' : flag.state;
    rows.push(flagRow({ ...flag, state }, { seq, state: flag.state }));
  }
  if (rows.length > 0) await db.flags.bulkPut(rows);
  return rows.length;
}

/** Puts back the server's state of a target's flags (a refused dismissal or hide). */
export async function restoreServerFlags(target: FlagTarget): Promise<void> {
  const rows = await db.flags.where('target').equals(targetKey(target)).toArray();
  const back = rows
    .filter((row) => row.sync && row.sync.state !== row.state)
    .map((row) => flagRow({ ...row, state: row.sync!.state }, row.sync));
  if (back.length > 0) await db.flags.bulkPut(back);
}

/** A refused readNotifications: the notifications show the server's read state again. */
export async function restoreServerReads(ids: readonly string[]): Promise<void> {
  const rows = (await db.notifications.bulkGet([...ids])).filter((row): row is NotificationRow => row !== undefined);
  const back = rows.map((row) => {
    const readAt = row.sync ? row.sync.readAt : null;
    return { ...row, readAt, unread: readAt === null ? (1 as const) : (0 as const) };
  });
  if (back.length > 0) await db.notifications.bulkPut(back);
}
