// The outbox of connected mode: every operation (src/shared/ops) is queued here in the same Dexie
// transaction as its local effect (run.ts), and leaves only when the server has answered it. An operation the server keeps failing on (a bug, not a refusal) is set aside so the
// rest still flows; a deletion is held until its Undo window is over. On a local-only device
// nothing is queued, so today's behaviour is unchanged.

import { db, type OutboxRow } from '../storage/schema';
import type { Op, OpOf } from '../../shared/protocol';
import { definitionOf, type OpType } from '../../shared/ops/registry';
import type { Session } from '../types';
import { isConnectedDevice } from './sync-meta';
import { newOperationId } from './uuid';
import { countWaiting, isWaiting } from './outbox-waiting';

export { countWaiting };

/**
 * The `postId` of an outbox row that is about no post (`readNotifications`, `setTheme`, `rename`):
 * 0, which no post has (post ids are positive), so every walk of a post's operations passes it by.
 */
export const NO_POST_ID = 0;

/** What an operation of `type` carries besides its id and type. */
export type Payload<T extends OpType> = Omit<OpOf<T>, 'id' | 'type'>;

/** A new operation of `type` with a fresh id (a UUID made here). */
export function newOp<T extends OpType>(type: T, payload: Payload<T>, id = newOperationId()): OpOf<T> {
  return { id, type, ...payload } as OpOf<T>;
}

/** The reply an operation is about, if it is about one (the reply it makes has the operation's id). */
export function replyIdOf(op: Op): string | undefined {
  if (definitionOf(op.type).creates === 'reply') return op.id;
  return 'replyId' in op && typeof op.replyId === 'string' ? op.replyId : undefined;
}

/** True when an operation of `type` makes a post (its `postId` in the outbox is the new post's temporary id until the server answers). */
export const createsPost = (type: OpType): boolean => definitionOf(type).creates === 'post';

/**
 * True when an operation of `type` carries its post's words (a new post's, an edit's: what its
 * definition gives back as a draft): while it waits, the post shows "Not sent yet". Recorded on the
 * outbox row when it is queued (`writesPost`), so the lists read it without the definitions.
 */
export function writesPost(type: OpType): boolean {
  const kept = definitionOf(type).keeps;
  return kept === 'post' || kept === 'edit';
}

/** What may go with a queued operation besides the operation. */
export interface QueueOptions {
  /** Not sent before this time (a deletion's Undo window). */
  holdUntil?: number;
  /** The Undo entry of the deletion it sends. */
  undoToken?: string;
  /** What a `setTheme` or `rename` replaced, for a rollback when the server refuses it and never said otherwise. */
  previous?: OutboxRow['previous'];
  /** The reply it is about (when the operation names it only by its post, as a flag of a reply does). */
  replyId?: string | null;
}

/**
 * Queues `op` when this device is connected (else does nothing) and returns its place in the
 * outbox. Call it inside the readwrite transaction (with meta and outbox) that applies the
 * operation's local effect. `postId` is the post it is about (NO_POST_ID: none; for a reply
 * operation the reply's post).
 */
export async function queueOperation(
  op: Op,
  postId: number,
  session: Pick<Session, 'email'> & Partial<Pick<Session, 'role'>>,
  options: QueueOptions = {},
): Promise<number | undefined> {
  if (!(await isConnectedDevice())) return undefined;
  const replaced = await coalesceRead(op, postId, session.email);
  if (replaced !== undefined) return replaced;
  const row: OutboxRow = { op, postId, email: session.email, at: Date.now(), writesPost: writesPost(op.type) };
  if (session.role) row.role = session.role;
  const replyId = options.replyId ?? replyIdOf(op);
  if (replyId) row.replyId = replyId;
  if (options.holdUntil !== undefined) row.holdUntil = options.holdUntil;
  if (options.undoToken) row.undoToken = options.undoToken;
  if (options.previous && Object.keys(options.previous).length > 0) row.previous = options.previous;
  return db.outbox.add(row);
}

/**
 * A read position (an operation that touches `reads`) replaces the member's unsent one about the
 * same post: positions only move forward, so the later says all the earlier did, and scrolling a long
 * thread sends a few operations, not one per reply. One already given to a push is left alone (the
 * server may have it). Returns the replaced row's place, or undefined when there was none.
 */
async function coalesceRead(op: Op, postId: number, email: string): Promise<number | undefined> {
  if (definitionOf(op.type).touches !== 'reads' || postId === NO_POST_ID) return undefined;
  const waiting = await db.outbox
    .where('postId')
    .equals(postId)
    .filter((row) => row.email === email && row.op.type === op.type && row.sentAt === undefined && isWaiting(row))
    .first();
  if (!waiting) return undefined;
  await db.outbox.update(waiting.seq!, { op, at: Date.now() });
  return waiting.seq;
}

/** The queued operations about one reply, oldest first. */
export async function operationsForReply(postId: number, replyId: string): Promise<OutboxRow[]> {
  return (await operationsFor(postId)).filter((row) => row.replyId === replyId);
}

/** The queued operations about one post, oldest first. */
export function operationsFor(postId: number): Promise<OutboxRow[]> {
  return db.outbox.where('postId').equals(postId).sortBy('seq');
}

/** True when `postId` is the temporary id of a post whose create the server has not answered. */
export async function isUnsentCreate(postId: number): Promise<boolean> {
  const ops = await operationsFor(postId);
  return ops.some((row) => createsPost(row.op.type) && row.ackCursor === undefined);
}

/**
 * The next operations to send for `email`, oldest first, at most `max`; held ones wait (nextHoldEnd),
 * and so does every later operation about the same post.
 * It stops before an operation about a post created in the same batch: that one needs the server's
 * id first. The operations it gives are marked `sentAt` in the same transaction, so a deletion
 * knows whether the server may already have a create.
 */
export async function nextBatch(email: string, max: number, now = Date.now()): Promise<OutboxRow[]> {
  return db.transaction('rw', db.outbox, async () => {
    // An operation queued after a held one about the same post waits with it (a like or a reply
    // after a bulk approval still in its Undo window would reach the server before the approval).
    const held = new Set<number>();
    const rows = await db.outbox
      .orderBy('seq')
      .filter((row) => {
        if (row.email !== email || !isWaiting(row)) return false;
        if (!isDue(row, now)) {
          held.add(row.postId);
          return false;
        }
        return !held.has(row.postId);
      })
      .limit(max)
      .toArray();
    const batch = cutAtDependency(rows);
    const first = batch.filter((row) => row.sentAt === undefined);
    for (const row of first) {
      row.sentAt = now;
      await db.outbox.update(row.seq!, { sentAt: now });
    }
    return batch;
  });
}

/** Keeps the batch up to (not including) the first operation that refers to a create in it. */
function cutAtDependency(rows: OutboxRow[]): OutboxRow[] {
  const created = new Set<number>();
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const creates = createsPost(row.op.type);
    if (!creates && created.has(row.postId)) return rows.slice(0, i);
    if (creates) created.add(row.postId);
  }
  return rows;
}

/** Due to be sent now: waiting, and not held (a deletion within its Undo window). */
const isDue = (row: OutboxRow, now: number) => isWaiting(row) && !(row.holdUntil !== undefined && row.holdUntil > now);

/** When the first held operation of `email` falls due (ms since the epoch), or undefined when none is held. */
export async function nextHoldEnd(email: string, now = Date.now()): Promise<number | undefined> {
  const held = await db.outbox
    .where('email')
    .equals(email)
    .filter((row) => isWaiting(row) && row.holdUntil !== undefined && row.holdUntil > now)
    .toArray();
  return held.length > 0 ? Math.min(...held.map((row) => row.holdUntil!)) : undefined;
}

/** An operation is set aside after at least this many failures in a row… */
export const MAX_FAILURES = 3;
/** …spread over at least this long, so that a passing fault of the server never sets one aside. */
export const SET_ASIDE_AFTER_MS = 60_000;

/**
 * Counts one more server failure on each of these operations; those that failed MAX_FAILURES times
 * over SET_ASIDE_AFTER_MS are set aside (kept on this device with their local effect, not sent
 * again until the app next starts, blocking nothing) and returned.
 */
export async function recordFailures(seqs: readonly number[], now = Date.now()): Promise<OutboxRow[]> {
  const setAside: OutboxRow[] = [];
  await db.transaction('rw', db.outbox, async () => {
    for (const seq of seqs) {
      const row = await db.outbox.get(seq);
      if (!row || !isWaiting(row)) continue;
      const failures = (row.failures ?? 0) + 1;
      const firstFailedAt = row.firstFailedAt ?? now;
      if (failures >= MAX_FAILURES && now - firstFailedAt >= SET_ASIDE_AFTER_MS) {
        await db.outbox.update(seq, { failures, firstFailedAt, setAside: true });
        setAside.push({ ...row, failures, firstFailedAt, setAside: true });
      } else {
        await db.outbox.update(seq, { failures, firstFailedAt });
      }
    }
  });
  return setAside;
}

/**
 * Holds the operations `seqs` until `until` (ms since the epoch): the server said they were over a
 * limit (`slow_down`). They stay queued (never dropped, never counted as failures) and are sent by the
 * cycle that starts when the hold ends; the operations after them about the same post wait with them.
 */
export async function holdOperations(seqs: readonly number[], until: number): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    for (const seq of seqs) await db.outbox.update(seq, { holdUntil: until });
  });
}

/** Gives every set-aside operation another chance (the app started again, maybe a new build). */
export async function releaseSetAside(): Promise<void> {
  await db.outbox
    .filter((row) => row.setAside === true)
    .modify((row) => {
      delete row.setAside;
      delete row.failures;
      delete row.firstFailedAt;
    });
}

/** How many operations of this member were set aside because the server kept failing on them. */
export function countSetAside(email: string): Promise<number> {
  return db.outbox
    .where('email')
    .equals(email)
    .filter((row) => row.setAside === true)
    .count();
}
