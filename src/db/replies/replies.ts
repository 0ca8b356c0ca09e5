// Replies: the operations reply, editReply, deleteReply (with Undo), hideReply, restoreReply and a
// member's view of a post (src/shared/ops, run here by ops/run.ts), and the reads behind a post's
// page. Each operation keeps the post's `comments` equal to its visible replies, so every tab, the
// `posts` mirror and the server agree. A page of a thread is one range of an index.

import Dexie from 'dexie';
import { db, type ReplyRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { isDataError, withDataErrors } from '../storage/errors';
import { toReply } from '../posts/post-codec';
import { applyOperation, runOperation } from '../ops/run';
import { putUndoEntry, runUndoable, type UndoEntry, type UndoToken } from '../ops/undo';
import { newOperationId } from '../ops/uuid';
import { replyDraftMetaKey } from '../contracts';
import type { Reply } from '../types';
import type { Attachment } from '../../shared/attachments';

/** How many replies a page of a thread shows. */
export const REPLY_PAGE_SIZE = 20;

const run = withDataErrors;

/** A stored reply as the app shows it (without the row's bookkeeping). */
export { toReply };

/** The thread of a post: its visible and hidden replies, oldest first. */
function thread(postId: number) {
  return db.replies.where('[postId+listed+createdAt]').between([postId, 1, Dexie.minKey], [postId, 1, Dexie.maxKey]);
}

/** The reply of this id as stored (after the operation that wrote it). */
async function stored(id: string): Promise<Reply> {
  return toReply((await run(() => db.replies.get(id)))!);
}

/** Writes a reply by the signed-in member to an approved post (the `reply` operation); `quoteId` names a reply of the same post. */
export async function createReply(
  postId: number,
  content: string,
  quoteId: string | null = null,
  attachments: readonly Pick<Attachment, 'sha256' | 'name'>[] = [],
): Promise<Reply> {
  const id = newOperationId();
  const files = attachments.length > 0 ? { attachments: attachments.map(({ sha256, name }) => ({ sha256, name })) } : {};
  await runOperation('reply', { postId, content, ...(quoteId ? { quoteId } : {}), ...files }, { id });
  return stored(id);
}

/** Replaces the text of the member's own visible reply (the `editReply` operation). */
export async function editReply(replyId: string, content: string): Promise<Reply> {
  await runOperation('editReply', { replyId, content });
  return stored(replyId);
}

/**
 * Deletes a reply (its author, or an admin: the `deleteReply` operation): its text is gone, and it
 * leaves the thread and the count. Undo (undoDeletion of posts/editing.ts) puts it back within
 * UNDO_WINDOW_MS; the server hears of it after that.
 */
export async function deleteReply(replyId: string): Promise<UndoToken> {
  const { undo } = await runUndoable(async ({ session, undo, held }) => {
    const ran = await applyOperation(session, 'deleteReply', { replyId }, held);
    const before = ran.store.repliesBefore.get(replyId);
    // Its open flags were settled; Undo opens them again.
    const entry: UndoEntry = {
      token: undo.token,
      email: session.email,
      until: undo.until,
      replies: before ? [before] : [],
      viewed: [],
      ops: [],
      flags: ran.store.settledFlagIds,
    };
    if (ran.opSeq !== undefined) entry.opSeq = ran.opSeq;
    await putUndoEntry(entry);
  });
  emitLocalChange('op:deleteReply');
  return undo;
}

/**
 * Hides a reply (admin only: the `hideReply` operation): members see "Hidden by a moderator" in its
 * place, and it leaves the count; its open flags are settled and its author is told (local-only:
 * here; connected: by the server).
 */
export async function hideReply(replyId: string): Promise<void> {
  await runOperation('hideReply', { replyId });
}

/** Shows a hidden reply again (admin only: the `restoreReply` operation). */
export async function restoreReply(replyId: string): Promise<void> {
  await runOperation('restoreReply', { replyId });
}

/**
 * Counts the signed-in member's view of a post (the `view` operation), once per member per post on
 * this device (the server counts once per member across devices). Nothing happens for a post they
 * may not see.
 */
export async function recordView(postId: number): Promise<boolean> {
  try {
    return (await runOperation('view', { postId })).store.changed;
  } catch (error) {
    if (isDataError(error, 'not_found')) return false;
    throw error;
  }
}

/** One page of a post's thread (visible and hidden replies), oldest first. */
export async function listReplies(postId: number, offset: number, limit = REPLY_PAGE_SIZE): Promise<Reply[]> {
  const rows = await run(() => thread(postId).offset(offset).limit(limit).toArray());
  // A reply's files (issue 42) and its author's public id are not mirror fields (toReply keeps
  // exactly those): added where shown, so the author's name links to their page on a device that
  // holds no email of theirs.
  return rows.map((row) => ({
    ...toReply(row),
    ...(row.authorId ? { authorId: row.authorId } : {}),
    ...(row.attachments?.length ? { attachments: row.attachments } : {}),
  }));
}

/**
 * The replies of a post (among `ids`) with a change this device has not sent yet (a connected
 * device's outbox; none on a local-only device, where nothing waits): shown "Not sent yet".
 */
export async function unsentReplyIds(postId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const wanted = new Set(ids);
  const rows = await run(() => db.outbox.where('postId').equals(postId).toArray());
  return new Set(rows.flatMap((row) => (row.replyId && wanted.has(row.replyId) ? [row.replyId] : [])));
}

/** How many replies the thread shows (visible and hidden; deleted ones have left it). */
export function countThread(postId: number): Promise<number> {
  return run(() => thread(postId).count());
}

/** The replies with these ids (for quotes), deleted ones included; unknown ids are skipped. */
export async function getReplies(ids: readonly string[]): Promise<Reply[]> {
  const rows = await run(() => db.replies.bulkGet([...ids]));
  return rows.filter((row): row is ReplyRow => row !== undefined).map(toReply);
}

/** Where a reply stands in its thread (0 for the oldest), or -1 when it is not in one. */
export async function threadIndex(replyId: string): Promise<number> {
  return run(async () => {
    const reply = await db.replies.get(replyId);
    if (!reply || reply.listed !== 1) return -1;
    const index = db.replies.where('[postId+listed+createdAt]');
    const older = await index.between([reply.postId, 1, Dexie.minKey], [reply.postId, 1, reply.createdAt], true, false).count();
    // Replies of the same millisecond stand in id order (the index's order, as listReplies reads it).
    const sameTime = await index.equals([reply.postId, 1, reply.createdAt]).primaryKeys();
    return older + sameTime.filter((id) => id < reply.id).length;
  });
}

/** The member's half-written reply to a post ('' when none). */
export async function loadReplyDraft(email: string, postId: number): Promise<string> {
  const row = await run(() => db.meta.get(replyDraftMetaKey(email, postId)));
  return typeof row?.value === 'string' ? row.value : '';
}

/** Saves the member's reply draft; an empty one removes it. */
export async function saveReplyDraft(email: string, postId: number, text: string): Promise<void> {
  const key = replyDraftMetaKey(email, postId);
  await run(async () => {
    if (text.trim()) await db.meta.put({ key, value: text });
    else await db.meta.delete(key);
  });
}
