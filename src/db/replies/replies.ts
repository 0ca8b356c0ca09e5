// Replies: the writes (reply, edit, delete, hide, restore), a member's view of a post, and the
// reads behind a post's page. Each write is one Dexie transaction that also queues its operation
// (connected mode) and keeps the post's `comments` equal to its visible replies, so every tab, the
// `posts` mirror and the server agree. A page of a thread is one range of an index.

import Dexie from 'dexie';
import { db, type PostRow, type ReplyRow } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange } from '../core/revisions';
import { recountComments } from '../core/reply-counts';
import { DataError, invalidInput, withDataErrors } from '../core/errors';
import { requireSession } from '../accounts/guards';
import { toReply } from '../posts/post-codec';
import { maySee } from '../posts/posts';
import { validateReply } from '../../shared/validation';
import { mayDeleteReply, newReply, UNDO_WINDOW_MS } from '../../shared/post-rules';
import { queueOperation, reachesServer, type OperationInput } from '../sync/outbox';
import { purgeExpiredUndoEntries, putUndoEntry, UNDO_GRACE_MS, type UndoEntry } from '../core/undo';
import type { UndoToken } from '../posts/editing';
import { newOperationId } from '../sync/uuid';
import { replyDraftMetaKey } from '../contracts';
import { settleFlags } from '../core/flag-rows';
import { writeNotifications } from '../notifications/notifications';
import { notificationsForHiddenReply, notificationsForReply } from '../../shared/moderation';
import type { Reply, Session } from '../types';

/** How many replies a page of a thread shows. */
export const REPLY_PAGE_SIZE = 20;

const run = withDataErrors;
const WRITE_TABLES = [db.posts, db.replies, db.meta, db.outbox, db.flags, db.notifications] as const;

/** A stored reply as the app shows it (without the row's bookkeeping). */
export { toReply };

/** The thread of a post: its visible and hidden replies, oldest first. */
function thread(postId: number) {
  return db.replies.where('[postId+listed+createdAt]').between([postId, 1, Dexie.minKey], [postId, 1, Dexie.maxKey]);
}

/** The post a member may reply to: it exists, they may see it, and it is approved. */
async function openPost(postId: number, session: Session): Promise<PostRow> {
  const post = await db.posts.get(postId);
  if (!post || !maySee(post, session)) throw new DataError('not_found', { postId });
  if (post.status !== 'approved') throw new DataError('replies_closed', { postId });
  return post;
}

/** A stored reply this member may see, or `reply_not_found`. */
async function storedReply(replyId: string, session: Session): Promise<ReplyRow> {
  const reply = await db.replies.get(replyId);
  const post = reply && (await db.posts.get(reply.postId));
  if (!reply || reply.state === 'deleted' || !post || !maySee(post, session)) throw new DataError('reply_not_found');
  return reply;
}

/**
 * Queues an operation about `postId` for the server, unless the post lives on this device only (a
 * post from before it met a server): its view and its replies then stay here, as the post does.
 */
async function queueForPost(
  input: OperationInput,
  postId: number,
  session: Session,
  options: Parameters<typeof queueOperation>[3] = {},
): Promise<number | undefined> {
  if (!(await reachesServer(postId))) return undefined;
  return queueOperation(input, postId, session, options);
}

/** Runs one reply write as a transaction, then tells the page's followers (mirror, other views). */
async function write<T>(work: () => Promise<T>): Promise<T> {
  const result = await run(() => db.transaction('rw', WRITE_TABLES, work));
  emitLocalChange('replied');
  return result;
}

/** Writes a reply by the signed-in member to an approved post; `quoteId` names a reply of the same post. */
export async function createReply(postId: number, content: string, quoteId: string | null = null): Promise<Reply> {
  const session = requireSession();
  const problem = validateReply(content);
  if (problem) throw invalidInput(problem);
  return write(async () => {
    const post = await openPost(postId, session);
    const quoted = quoteId ? await db.replies.get(quoteId) : undefined;
    const quote = quoted && quoted.postId === postId && quoted.listed === 1 ? quoted.id : null;
    const now = Date.now();
    const reply: ReplyRow = { ...newReply(newOperationId(), postId, session, content.trim(), quote, now), listed: 1, arrivedAt: now };
    await db.replies.add(reply);
    await writeNotifications(notificationsForReply(post, reply, quote ? quoted! : null, session), reply.createdAt);
    await recountComments(postId);
    await countChange();
    await queueForPost({ type: 'reply', id: reply.id, content: reply.content, quoteId: quote }, postId, session);
    return toReply(reply);
  });
}

/** Replaces the text of the member's own visible reply. */
export async function editReply(replyId: string, content: string): Promise<Reply> {
  const session = requireSession();
  const problem = validateReply(content);
  if (problem) throw invalidInput(problem);
  return write(async () => {
    const reply = await storedReply(replyId, session);
    if (reply.authorEmail !== session.email) throw new DataError('not_your_reply');
    if (reply.state === 'hidden') throw new DataError('reply_hidden');
    const edited: ReplyRow = { ...reply, content: content.trim(), editedAt: Date.now() };
    await db.replies.put(edited);
    await queueForPost({ type: 'editReply', replyId, content: edited.content }, reply.postId, session);
    return toReply(edited);
  });
}

/**
 * Deletes a reply (its author, or an admin): its text is gone, and it leaves the thread and the
 * count. Undo (undoDeletion of posts/editing.ts) puts it back within UNDO_WINDOW_MS; the server
 * hears of it after that.
 */
export async function deleteReply(replyId: string): Promise<UndoToken> {
  const session = requireSession();
  const now = Date.now();
  const undo: UndoToken = { token: newOperationId(), until: now + UNDO_WINDOW_MS };
  await run(() =>
    db.transaction('rw', [...WRITE_TABLES, db.viewed], async () => {
      await purgeExpiredUndoEntries(now);
      const reply = await storedReply(replyId, session);
      if (!mayDeleteReply(reply, session)) throw new DataError('not_your_reply');
      await db.replies.put({ ...reply, state: 'deleted', content: '', listed: 0 });
      await recountComments(reply.postId);
      await countChange();
      const entry: UndoEntry = { token: undo.token, email: session.email, until: undo.until, replies: [reply], viewed: [], ops: [] };
      // Its open flags are settled; Undo opens them again.
      entry.flags = await settleFlags([{ postId: reply.postId, replyId }], 'resolved');
      const options = { holdUntil: undo.until + UNDO_GRACE_MS, undoToken: undo.token };
      const opSeq = await queueForPost({ type: 'deleteReply', replyId }, reply.postId, session, options);
      if (opSeq !== undefined) entry.opSeq = opSeq;
      await putUndoEntry(entry);
    }),
  );
  emitLocalChange('replied');
  return undo;
}

/**
 * Hides a reply (admin only): members see "Hidden by a moderator" in its place, and it leaves the
 * count; its open flags are settled and its author is told (local-only: here; connected: by the server).
 */
export function hideReply(replyId: string): Promise<void> {
  return moderate(replyId, 'hidden');
}

/** Shows a hidden reply again (admin only). */
export function restoreReply(replyId: string): Promise<void> {
  return moderate(replyId, 'visible');
}

async function moderate(replyId: string, state: 'hidden' | 'visible'): Promise<void> {
  const session = requireSession();
  if (session.role !== 'admin') throw new DataError('moderators_only');
  await write(async () => {
    const reply = await storedReply(replyId, session);
    if (reply.state === state) return;
    await db.replies.update(replyId, { state });
    await recountComments(reply.postId);
    await countChange();
    if (state === 'hidden') {
      await settleFlags([{ postId: reply.postId, replyId }], 'resolved');
      const post = await db.posts.get(reply.postId);
      if (post) await writeNotifications(notificationsForHiddenReply(post, reply, session));
    }
    await queueForPost({ type: state === 'hidden' ? 'hideReply' : 'restoreReply', replyId }, reply.postId, session);
  });
}

/**
 * Counts the signed-in member's view of a post, once per member per post on this device (the
 * server counts once per member across devices). Nothing happens for a post they may not see.
 */
export async function recordView(postId: number): Promise<boolean> {
  const session = requireSession();
  const counted = await run(() =>
    db.transaction('rw', [db.posts, db.viewed, db.meta, db.outbox], async () => {
      if (await db.viewed.get([session.email, postId])) return false;
      const post = await db.posts.get(postId);
      if (!post || !maySee(post, session)) return false;
      await db.viewed.put({ email: session.email, postId });
      await db.posts.update(postId, { views: (post.views || 0) + 1 });
      await countChange();
      await queueForPost({ type: 'view' }, postId, session);
      return true;
    }),
  );
  if (counted) emitLocalChange('post-viewed');
  return counted;
}

/** One page of a post's thread (visible and hidden replies), oldest first. */
export async function listReplies(postId: number, offset: number, limit = REPLY_PAGE_SIZE): Promise<Reply[]> {
  const rows = await run(() => thread(postId).offset(offset).limit(limit).toArray());
  return rows.map(toReply);
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
