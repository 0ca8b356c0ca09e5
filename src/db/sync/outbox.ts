// The outbox of connected mode: every write (create, like, approve, reject) is queued here in the
// same Dexie transaction as its local effect, and leaves only when the server has answered it. An
// operation the server keeps failing on (a bug, not a refusal) is set aside so the rest still flows.
// On a local-only device nothing is queued, so today's behaviour is unchanged.

import { db, type OutboxRow } from '../core/schema';
import type { Op } from '../../shared/protocol';
import type { PostStatus, Session } from '../types';
import { nextRev } from '../core/revisions';
import { localView } from './overlay';
import { isConnectedDevice } from './sync-meta';
import { newOperationId } from './uuid';

export type OperationInput =
  | { type: 'create'; post: { title: string; content: string; category: string; tags?: string[] } }
  | { type: 'like'; count?: number }
  | { type: 'approve' | 'reject' }
  | { type: 'view' }
  /** The reply's id is the operation's id: pass the one the reply was stored under. */
  | { type: 'reply'; id: string; content: string; quoteId: string | null }
  | { type: 'editReply'; replyId: string; content: string }
  | { type: 'deleteReply' | 'hideReply' | 'restoreReply'; replyId: string };

function toOperation(input: OperationInput, postId: number): Op {
  const id = newOperationId();
  switch (input.type) {
    case 'create':
      return { id, type: 'create', post: input.post };
    case 'like':
      return input.count && input.count > 1 ? { id, type: 'like', postId, count: input.count } : { id, type: 'like', postId };
    case 'reply':
      return input.quoteId
        ? { id: input.id, type: 'reply', postId, content: input.content, quoteId: input.quoteId }
        : { id: input.id, type: 'reply', postId, content: input.content };
    case 'editReply':
      return { id, type: 'editReply', replyId: input.replyId, content: input.content };
    case 'deleteReply':
    case 'hideReply':
    case 'restoreReply':
      return { id, type: input.type, replyId: input.replyId };
    default:
      return { id, type: input.type, postId };
  }
}

/** The reply an operation is about, if it is about one. */
export function replyIdOf(op: Op): string | undefined {
  if (op.type === 'reply') return op.id;
  return 'replyId' in op ? op.replyId : undefined;
}

/**
 * Queues one operation when this device is connected (else does nothing). Call it inside the
 * readwrite transaction (posts, meta, outbox) that applies the operation's local effect. For a
 * reply operation `postId` is the reply's post.
 */
export async function queueOperation(input: OperationInput, postId: number, session: Session, previousStatus?: PostStatus): Promise<void> {
  if (!(await isConnectedDevice())) return;
  const op = toOperation(input, postId);
  const row: OutboxRow = { op, postId, email: session.email, at: Date.now() };
  const replyId = replyIdOf(op);
  if (replyId) row.replyId = replyId;
  if (previousStatus) row.previousStatus = previousStatus;
  await db.outbox.add(row);
}

/** The queued operations about one reply, oldest first. */
export async function operationsForReply(postId: number, replyId: string): Promise<OutboxRow[]> {
  return (await operationsFor(postId)).filter((row) => row.replyId === replyId);
}

/** The queued operations about one post, oldest first. */
export function operationsFor(postId: number): Promise<OutboxRow[]> {
  return db.outbox.where('postId').equals(postId).sortBy('seq');
}

/** Shows a synced post as its server state plus its outstanding operations; call inside a transaction. */
export async function refreshLocalView(postId: number): Promise<void> {
  const row = await db.posts.get(postId);
  if (!row?.sync) return;
  const view = localView(row.sync, await operationsFor(postId), row.views);
  // A status change gets a new change number, so the search index follows it.
  if (view.status !== row.status) await db.posts.update(postId, { ...view, rev: await nextRev() });
  else if (view.likes !== row.likes || view.views !== row.views) await db.posts.update(postId, { likes: view.likes, views: view.views });
}

/** True when `postId` is the temporary id of a post whose create the server has not answered. */
export async function isUnsentCreate(postId: number): Promise<boolean> {
  const ops = await operationsFor(postId);
  return ops.some((row) => row.op.type === 'create' && row.ackCursor === undefined);
}

/**
 * The next operations to send for `email`, oldest first, at most `max`. It stops before an
 * operation about a post created in the same batch: that one needs the server's id first.
 */
export async function nextBatch(email: string, max: number): Promise<OutboxRow[]> {
  const rows = await db.outbox
    .orderBy('seq')
    .filter((row) => row.email === email && isWaiting(row))
    .limit(max)
    .toArray();
  return cutAtDependency(rows);
}

/** Keeps the batch up to (not including) the first operation that refers to a create in it. */
function cutAtDependency(rows: OutboxRow[]): OutboxRow[] {
  const created = new Set<number>();
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (row.op.type !== 'create' && created.has(row.postId)) return rows.slice(0, i);
    if (row.op.type === 'create') created.add(row.postId);
  }
  return rows;
}

/** Still to be sent: not yet applied by the server, and not set aside. */
const isWaiting = (row: OutboxRow) => row.ackCursor === undefined && !row.setAside;

/** How many operations are waiting to be sent (for one member, or for everyone). */
export function countWaiting(email?: string): Promise<number> {
  const rows = email ? db.outbox.where('email').equals(email) : db.outbox.toCollection();
  return rows.filter(isWaiting).count();
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
