// The outbox of connected mode: every write (create, like, approve, reject, edit, delete…) is queued
// here in the same Dexie transaction as its local effect, and leaves only when the server has
// answered it. An operation the server keeps failing on (a bug, not a refusal) is set aside so the
// rest still flows; a deletion is held until its Undo window is over. On a local-only device
// nothing is queued, so today's behaviour is unchanged.

import { db, type OutboxRow, type PostRow } from '../core/schema';
import type { Op } from '../../shared/protocol';
import type { PostStatus, Session } from '../types';
import type { NewPostFields } from '../../shared/post-rules';
import type { FlagReason } from '../../shared/moderation';
import type { Theme } from '../../shared/comfort';
import { nextRev } from '../core/revisions';
import { fieldsOf, isOutstanding, localView } from './overlay';
import { isConnectedDevice } from './sync-meta';
import { newOperationId } from './uuid';

export type OperationInput =
  | { type: 'create'; post: { title: string; content: string; category: string; tags?: string[] } }
  | { type: 'like'; count?: number }
  /** `reason`: a rejection's (checked and trimmed by the caller; absent when none). */
  | { type: 'approve' | 'reject'; reason?: string }
  | { type: 'hidePost'; reason?: string }
  /** The flag's id is the operation's id: pass the one the flag was stored under. */
  | { type: 'flag'; id: string; replyId: string | null; reason: FlagReason; text: string }
  | { type: 'dismissFlags'; replyId: string | null }
  /** About no post: queued with postId READ_NOTIFICATIONS_POST_ID. */
  | { type: 'readNotifications'; ids: string[] }
  | { type: 'view' }
  /** `base`: the status the author saw when editing (the server refuses the edit over another one). */
  | { type: 'editPost'; post: NewPostFields; base: PostStatus }
  | { type: 'deletePost' }
  /** The reply's id is the operation's id: pass the one the reply was stored under. */
  | { type: 'reply'; id: string; content: string; quoteId: string | null }
  | { type: 'editReply'; replyId: string; content: string }
  | { type: 'deleteReply' | 'hideReply' | 'restoreReply'; replyId: string }
  /** Comfort (protocol 5): `save` is about its post; `setTheme` and `rename` about none (queued with NO_POST_ID). */
  | { type: 'save'; saved: boolean }
  | { type: 'setTheme'; theme: Theme }
  | { type: 'rename'; name: string };

/**
 * The `postId` of an outbox row that is about no post (`readNotifications`): 0, which no post has
 * (post ids are positive), so every walk of a post's operations passes it by.
 */
export const READ_NOTIFICATIONS_POST_ID = 0;
/** The same `postId` for the other operations about no post (`setTheme`, `rename`). */
export const NO_POST_ID = READ_NOTIFICATIONS_POST_ID;

function toOperation(input: OperationInput, postId: number): Op {
  const id = newOperationId();
  switch (input.type) {
    case 'reject':
    case 'hidePost':
      return input.reason ? { id, type: input.type, postId, reason: input.reason } : { id, type: input.type, postId };
    case 'flag':
      return input.text
        ? { id: input.id, type: 'flag', postId, replyId: input.replyId, reason: input.reason, text: input.text }
        : { id: input.id, type: 'flag', postId, replyId: input.replyId, reason: input.reason };
    case 'dismissFlags':
      return { id, type: 'dismissFlags', postId, replyId: input.replyId };
    case 'readNotifications':
      return { id, type: 'readNotifications', ids: [...input.ids] };
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
    case 'save':
      return { id, type: 'save', postId, saved: input.saved };
    case 'setTheme':
      return { id, type: 'setTheme', theme: input.theme };
    case 'rename':
      return { id, type: 'rename', name: input.name };
    case 'editPost':
      return { id, type: 'editPost', postId, post: { ...input.post }, base: input.base };
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
  return 'replyId' in op && typeof op.replyId === 'string' ? op.replyId : undefined;
}

/** What may go with a queued operation besides its input. */
export interface QueueOptions {
  /** The status a review replaced, for a rollback when the server refuses it. */
  previousStatus?: PostStatus;
  /** Not sent before this time (a deletion's Undo window). */
  holdUntil?: number;
  /** The Undo entry of the deletion it sends. */
  undoToken?: string;
  /** What a `setTheme` or `rename` replaced, for a rollback when the server refuses it. */
  previous?: OutboxRow['previous'];
}

/**
 * Queues one operation when this device is connected (else does nothing) and returns its place in
 * the outbox. Call it inside the readwrite transaction (posts, meta, outbox) that applies the
 * operation's local effect. For a reply operation `postId` is the reply's post.
 */
export async function queueOperation(
  input: OperationInput,
  postId: number,
  session: Pick<Session, 'email'>,
  options: PostStatus | QueueOptions = {},
): Promise<number | undefined> {
  if (!(await isConnectedDevice())) return undefined;
  const { previousStatus, holdUntil, undoToken, previous } = typeof options === 'string' ? { previousStatus: options } : options;
  const op = toOperation(input, postId);
  const row: OutboxRow = { op, postId, email: session.email, at: Date.now() };
  const replyId = replyIdOf(op);
  if (replyId) row.replyId = replyId;
  if (previousStatus) row.previousStatus = previousStatus;
  if (holdUntil !== undefined) row.holdUntil = holdUntil;
  if (undoToken) row.undoToken = undoToken;
  if (previous) row.previous = previous;
  return db.outbox.add(row);
}

/** The queued operations about one reply, oldest first. */
export async function operationsForReply(postId: number, replyId: string): Promise<OutboxRow[]> {
  return (await operationsFor(postId)).filter((row) => row.replyId === replyId);
}

/** The queued operations about one post, oldest first. */
export function operationsFor(postId: number): Promise<OutboxRow[]> {
  return db.outbox.where('postId').equals(postId).sortBy('seq');
}

/**
 * Shows a synced post as its server state plus its outstanding operations; call inside a
 * transaction. The server's text is kept (`sync.fields`) only while an edit is outstanding.
 */
export async function refreshLocalView(postId: number): Promise<void> {
  const row = await db.posts.get(postId);
  if (!row?.sync) return;
  const ops = await operationsFor(postId);
  const editing = ops.some((entry) => entry.op.type === 'editPost' && isOutstanding(entry, row.sync));
  const sync = { ...row.sync };
  if (!editing) delete sync.fields;
  const view = localView(row.sync, ops, row.views);
  const changes: Partial<PostRow> = {};
  for (const [field, value] of Object.entries(view) as [keyof typeof view, unknown][]) {
    if (JSON.stringify(row[field]) !== JSON.stringify(value)) (changes as Record<string, unknown>)[field] = value;
  }
  if (Boolean(row.sync.fields) !== Boolean(sync.fields)) changes.sync = sync;
  if (Object.keys(changes).length === 0) return;
  // A change of status or text gets a new change number, so the search index follows it.
  if (
    changes.status ||
    changes.title !== undefined ||
    changes.content !== undefined ||
    changes.category !== undefined ||
    changes.tags !== undefined
  )
    changes.rev = await nextRev();
  await db.posts.update(postId, changes);
}

/** Keeps the server's text of a synced post before this device edits it (the row's text is then the server's). */
export function withServerFields(row: PostRow): PostRow['sync'] {
  if (!row.sync || row.sync.fields) return row.sync;
  return { ...row.sync, fields: fieldsOf(row) };
}

/**
 * True when operations about this post go to the server: the server has it, or its create is
 * queued. A post from before this device met a server lives here only, with its views and replies.
 */
export async function reachesServer(postId: number): Promise<boolean> {
  return Boolean((await db.posts.get(postId))?.sync) || isUnsentCreate(postId);
}

/** True when `postId` is the temporary id of a post whose create the server has not answered. */
export async function isUnsentCreate(postId: number): Promise<boolean> {
  const ops = await operationsFor(postId);
  return ops.some((row) => row.op.type === 'create' && row.ackCursor === undefined);
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
    if (row.op.type !== 'create' && created.has(row.postId)) return rows.slice(0, i);
    if (row.op.type === 'create') created.add(row.postId);
  }
  return rows;
}

/** Still to be sent: not yet applied by the server, and not set aside. */
const isWaiting = (row: OutboxRow) => row.ackCursor === undefined && !row.setAside;

/** Due to be sent now: waiting, and not held (a deletion within its Undo window). */
const isDue = (row: OutboxRow, now: number) => isWaiting(row) && !(row.holdUntil !== undefined && row.holdUntil > now);

/**
 * How many operations are waiting to be sent (for one member, or for everyone). A held deletion
 * counts: the server does not know of it yet.
 */
export function countWaiting(email?: string): Promise<number> {
  const rows = email ? db.outbox.where('email').equals(email) : db.outbox.toCollection();
  return rows.filter(isWaiting).count();
}

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
