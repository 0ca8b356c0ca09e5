// What a deletion removed, kept in meta under `undo:<token>` so that Undo can put it back exactly:
// the post with its replies and views, or one reply, and the queued operations that went with
// them. On a connected device the entry lives until the server has settled its held operation
// (a refusal puts the rows back from it); else until its Undo window (and a little grace) is over.

import { META_KEY_PREFIXES } from '../contracts';
import { db, type OutboxRow, type PostRow, type ReplyRow, type ViewedRow } from '../storage/schema';
import { countChange, nextRev } from '../storage/revisions';
import { recountComments } from '../replies/reply-counts';
import { reopenFlags } from '../flags/flag-rows';
import { withDataErrors } from '../storage/errors';
import { requireSession } from '../members/guards';
import { UNDO_WINDOW_MS } from '../../shared/post-rules';
import type { Session } from '../types';
import { OP_TABLES } from './op-tables';
import { newOperationId } from './uuid';

/**
 * How long after the Undo window a held deletion still waits before it is sent (ms): the toast's
 * Undo, pressed at its last moment, then always finds the operation still on the device.
 */
export const UNDO_GRACE_MS = 500;

export interface UndoEntry {
  token: string;
  /** The member who deleted. */
  email: string;
  /** The end of the Undo window (ms since the epoch). */
  until: number;
  /** The deleted post (a post's deletion). */
  post?: PostRow;
  /** The post's replies, or the deleted reply as it was (a reply's deletion). */
  replies: ReplyRow[];
  /** Who had opened the post on this device. */
  viewed: ViewedRow[];
  /** The queued operations about the post that the deletion took off the outbox (put back by Undo). */
  ops: OutboxRow[];
  /** The held operation that tells the server (connected mode). */
  opSeq?: number;
  /** The id of the create the deletion dropped, when the server had not answered it yet. */
  createOpId?: string;
  /**
   * The id of the create a push had already taken when the post was deleted: it stays queued, and
   * its answer moves the held deletion and this entry to the server's id (apply-results.ts).
   */
  sentCreateOpId?: string;
  /** The open flags the deletion settled (Undo opens them again). */
  flags?: string[];
  /** A bulk review (moderation/review.ts): each post as it was before, and its held operation (connected). */
  reviews?: { post: PostRow; opSeq?: number }[];
  /** The notifications a local-only bulk review wrote (Undo deletes them). */
  notifications?: string[];
}

/** What an undoable write returns: pass it to its Undo within UNDO_WINDOW_MS. */
export interface UndoToken {
  token: string;
  /** When Undo stops working (ms since the epoch). */
  until: number;
}

/** What an undoable write works with: the member, its Undo token, and the options that hold its queued operations until the window ends. */
export interface Undoable {
  session: Session;
  undo: UndoToken;
  held: { holdUntil: number; undoToken: string };
}

/**
 * Runs an undoable write (a deletion, a bulk review) in one transaction (OP_TABLES), after forgetting
 * the Undo entries whose time is over; its queued operations wait (`held`) until its Undo window ends.
 */
export async function runUndoable<T>(
  work: (undoable: Undoable) => Promise<T>,
  session: Session = requireSession(),
): Promise<{ result: T; undo: UndoToken }> {
  const now = Date.now();
  const undo: UndoToken = { token: newOperationId(), until: now + UNDO_WINDOW_MS };
  const held = { holdUntil: undo.until + UNDO_GRACE_MS, undoToken: undo.token };
  const result = await withDataErrors(() =>
    db.transaction('rw', OP_TABLES(), async () => {
      await purgeExpiredUndoEntries(now);
      return work({ session, undo, held });
    }),
  );
  return { result, undo };
}

export const undoMetaKey = (token: string) => `${META_KEY_PREFIXES.undo}${token}`;

function readEntry(value: unknown): UndoEntry | undefined {
  const entry = value as Partial<UndoEntry> | undefined;
  if (!entry || typeof entry.token !== 'string' || typeof entry.until !== 'number' || !Array.isArray(entry.replies)) return undefined;
  return { viewed: [], ops: [], ...entry } as UndoEntry;
}

export async function getUndoEntry(token: string): Promise<UndoEntry | undefined> {
  return readEntry((await db.meta.get(undoMetaKey(token)))?.value);
}

export async function putUndoEntry(entry: UndoEntry): Promise<void> {
  await db.meta.put({ key: undoMetaKey(entry.token), value: entry });
}

export async function deleteUndoEntry(token: string | undefined): Promise<void> {
  if (token) await db.meta.delete(undoMetaKey(token));
}

/** Every stored entry (a handful at most: they live seconds, or until their operation is settled). */
export async function listUndoEntries(): Promise<UndoEntry[]> {
  const rows = await db.meta.where('key').startsWith(META_KEY_PREFIXES.undo).toArray();
  return rows.flatMap((row) => readEntry(row.value) ?? []);
}

/**
 * Forgets the entries whose window and grace are over and whose held operation (if any) has left
 * the outbox; call it inside a readwrite transaction on meta and outbox.
 */
export async function purgeExpiredUndoEntries(now = Date.now()): Promise<void> {
  for (const entry of await listUndoEntries()) {
    if (now < entry.until + UNDO_GRACE_MS) continue;
    if (entry.opSeq !== undefined && (await db.outbox.get(entry.opSeq))) continue;
    await deleteUndoEntry(entry.token);
  }
}

/**
 * Puts back what the entry kept: the post (with a new change number, so the search index sees it
 * again), its replies and views, the operations the deletion dropped; recounts the post's visible
 * replies; forgets the entry. Call inside a readwrite transaction on posts, replies, viewed, meta, outbox, flags.
 */
export async function restoreUndoEntry(entry: UndoEntry): Promise<void> {
  if (entry.post) await db.posts.put({ ...entry.post, rev: await nextRev() });
  // A reply pulled again while the deletion waited (edited, hidden, deleted by someone else) keeps
  // the newer server state; the caller shows it with this device's operations on top.
  const stored = await db.replies.bulkGet(entry.replies.map((reply) => reply.id));
  const kept = entry.replies.filter((reply, index) => {
    const newer = stored[index]?.sync;
    return !newer || !reply.sync || newer.seq <= reply.sync.seq;
  });
  if (kept.length > 0) await db.replies.bulkPut(kept);
  if (entry.viewed.length > 0) await db.viewed.bulkPut(entry.viewed);
  if (entry.ops.length > 0) await db.outbox.bulkPut(entry.ops);
  await reopenFlags(entry.flags ?? []);
  for (const postId of new Set([...(entry.post ? [entry.post.id] : []), ...entry.replies.map((reply) => reply.postId)])) {
    await recountComments(postId);
  }
  await countChange();
  await deleteUndoEntry(entry.token);
}
