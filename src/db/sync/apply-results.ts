// Applying the server's answers to a push (connected mode): acknowledged operations leave the
// outbox (a create re-keys its temporary row to the server's id); a refused one is undone on
// this device and returned, so the app can say why. A refused edit's text is kept as the member's
// edit draft; a refused deletion puts back what it removed.

import Dexie from 'dexie';
import { db, type OutboxRow } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange, nextRev } from '../core/revisions';
import type { Op, OpResult, WirePost } from '../../shared/protocol';
import { queueOperation, refreshLocalView } from './outbox';
import { editFields } from './overlay';
import { rekeyPost, storeServerPosts } from './server-posts';
import { SYNC_META } from './sync-meta';
import { draftMetaKey, editDraftMetaKey, replyDraftMetaKey } from '../contracts';
import {
  deleteUndoEntry,
  getUndoEntry,
  listUndoEntries,
  putUndoEntry,
  restoreUndoEntry,
  UNDO_GRACE_MS,
  type UndoEntry,
} from '../core/undo';
import { recountComments } from '../core/reply-counts';
import { noteRemovedPosts } from '../core/removals';
import { refreshReplyView, showNewestReplies, storeServerReplies } from './server-replies';
import { restoreServerFlags, restoreServerReads, storeServerFlags } from './server-moderation';
import { followPreferences, undoPreference, undoSave, type PreferenceEffects } from './server-comfort';

/** The operations about flags and notifications: no post changes with them. */
const MODERATION_ONLY = new Set<Op['type']>(['flag', 'dismissFlags', 'readNotifications']);
/** The operations of comfort: no post changes with them either; their effect comes with the pull. */
const COMFORT_ONLY = new Set<Op['type']>(['save', 'setTheme', 'rename']);

export interface Refusal {
  op: Op;
  code: string;
  reason: string;
  /** The title of the post it was about, as this device showed it (for a notice naming several). */
  title?: string;
}

type Settled = Extract<OpResult, { status: 'applied' | 'duplicate' }>;

/**
 * The server's answer to a create whose post was deleted here after a push took it: the held
 * deletion and the Undo entry move to the server's id, so the deletion deletes the server's post
 * and Undo puts back a post the server has.
 */
async function followCreate(opId: string, serverId: number): Promise<void> {
  const move = <T extends { postId: number }>(row: T): T => ({ ...row, postId: serverId });
  for (const entry of await listUndoEntries()) {
    if (entry.sentCreateOpId !== opId) continue;
    const held = entry.opSeq === undefined ? undefined : await db.outbox.get(entry.opSeq);
    if (held && held.op.type === 'deletePost')
      await db.outbox.update(held.seq!, { postId: serverId, op: { ...held.op, postId: serverId } });
    const post = entry.post && { ...entry.post, id: serverId, sync: entry.post.sync ?? { seq: 0, likes: 0, status: 'pending' as const } };
    const ops = entry.ops.map((row) => ({ ...move(row), op: 'postId' in row.op ? { ...row.op, postId: serverId } : row.op }));
    const rest: Partial<UndoEntry> = { sentCreateOpId: undefined };
    await putUndoEntry({ ...entry, ...rest, post, ops, replies: entry.replies.map(move), viewed: entry.viewed.map(move) });
  }
}

async function acknowledge(row: OutboxRow, result: Settled, cursor: number): Promise<void> {
  const { op } = row;
  // A deletion the server applied can no longer be undone: what it kept is not needed.
  await deleteUndoEntry(row.undoToken);
  if (result.flag) await storeServerFlags([result.flag]);
  if (COMFORT_ONLY.has(op.type)) {
    await db.outbox.update(row.seq!, { ackCursor: cursor });
    return;
  }
  if (MODERATION_ONLY.has(op.type)) {
    // A flag the answer carries is the server's word; otherwise the effect waits for the pull.
    if (op.type === 'flag' && result.flag) await db.outbox.delete(row.seq!);
    else await db.outbox.update(row.seq!, { ackCursor: cursor });
    return;
  }
  if (op.type === 'create') {
    const serverId = result.postId ?? result.post?.id;
    await db.outbox.delete(row.seq!);
    if (serverId === undefined) return;
    if (serverId !== row.postId) {
      await rekeyPost(row.postId, serverId);
      // Remembered so that importing the same backup again finds the post under its new id.
      await db.meta.put({ key: `${SYNC_META.rekeyed}${row.postId}`, value: serverId });
    }
    await followCreate(op.id, serverId);
    // Until the pull brings it, the row stands for the server's pending post (seq 0: any pull wins).
    const moved = await db.posts.get(serverId);
    if (moved && !moved.sync) await db.posts.update(serverId, { sync: { seq: 0, likes: 0, status: 'pending' } });
    if (result.post) await storeServerPosts([result.post]);
    return;
  }
  if (result.post) {
    await db.outbox.delete(row.seq!);
    await storeServerPosts([result.post as WirePost]);
    if (result.reply) await storeServerReplies([result.reply]);
    if (row.replyId) await refreshReplyView(row.replyId);
  } else {
    // Applied, but this device sees the effect only once it has pulled up to `cursor`.
    await db.outbox.update(row.seq!, { ackCursor: cursor });
  }
  await refreshLocalView(row.postId);
}

/**
 * A refused post's text is never lost: it becomes the member's New Post draft, unless they are
 * writing another one already (their own draft wins).
 */
async function keepAsDraft(row: OutboxRow): Promise<void> {
  if (row.op.type !== 'create') return;
  const { title, content, category } = row.op.post as { title?: unknown; content?: unknown; category?: unknown };
  const key = draftMetaKey(row.email);
  if (typeof title !== 'string' || typeof content !== 'string' || (await db.meta.get(key))) return;
  await db.meta.put({ key, value: { title, content, category: typeof category === 'string' ? category : '', savedAt: Date.now() } });
}

/** A refused reply leaves the thread, and its text goes back to the member's reply box (unless they are writing another). */
async function undoReply(row: OutboxRow, replyId: string): Promise<void> {
  const reply = await db.replies.get(replyId);
  if (row.op.type === 'reply' && reply && !reply.sync) {
    await db.replies.delete(replyId);
    const key = replyDraftMetaKey(row.email, row.postId);
    if (!(await db.meta.get(key))) await db.meta.put({ key, value: reply.content });
    await db.outbox
      .where('postId')
      .equals(row.postId)
      .filter((entry) => entry.replyId === replyId)
      .delete();
    await recountComments(reply.postId);
    return;
  }
  await refreshReplyView(replyId);
}

/** A refused edit's text becomes the member's edit draft of that post (the newest refused edit wins). */
async function keepEditDraft(row: OutboxRow, code: string): Promise<void> {
  const fields = editFields(row.op);
  if (!fields) return;
  const value = { ...fields, savedAt: Date.now() };
  // The post is gone (deleted elsewhere): there is no Edit to open, so the text becomes the
  // member's New Post draft, unless they are writing one already (it then stays under the post's key).
  const draft = draftMetaKey(row.email);
  if (code === 'not_found' && !(await db.meta.get(draft))) await db.meta.put({ key: draft, value });
  else await db.meta.put({ key: editDraftMetaKey(row.email, row.postId), value });
}

/**
 * A refused deletion puts back what it removed (the server keeps the post: `not_your_post`), unless
 * the post is gone anyway (`not_found`).
 */
async function undoDeletion(row: OutboxRow, code: string): Promise<void> {
  const entry = row.undoToken ? await getUndoEntry(row.undoToken) : undefined;
  if (!entry) return;
  if (code === 'not_found' || code === 'reply_not_found') await deleteUndoEntry(entry.token);
  else if (row.op.type === 'deletePost') {
    await restoreUndoEntry(entry);
    await showNewestReplies(entry.replies);
  } else await deleteUndoEntry(entry.token); // a reply: the server's state comes back below (refreshReplyView)
}

/** Undoes a refused operation about flags or notifications; false for any other operation. */
async function undoModeration(row: OutboxRow): Promise<boolean> {
  const { op } = row;
  if (op.type === 'flag') {
    const flag = await db.flags.get(op.id);
    if (flag && !flag.sync) await db.flags.delete(op.id);
  } else if (op.type === 'dismissFlags') await restoreServerFlags(op);
  else if (op.type === 'readNotifications') await restoreServerReads(op.ids);
  else if (op.type === 'hidePost') await restoreServerFlags({ postId: op.postId, replyId: null });
  return MODERATION_ONLY.has(op.type);
}

async function undo(row: OutboxRow, code: string, followed: PreferenceEffects[]): Promise<void> {
  await db.outbox.delete(row.seq!);
  if (COMFORT_ONLY.has(row.op.type)) {
    // What a refused save, theme or name changed here goes back to the server's word.
    await undoSave(row);
    const effects = await undoPreference(row);
    if (effects) followed.push(effects);
    return;
  }
  if (row.undoToken) await undoDeletion(row, code);
  if (await undoModeration(row)) return;
  if (row.replyId) {
    await undoReply(row, row.replyId);
    return;
  }
  if (row.op.type === 'deletePost') return;
  if (row.op.type === 'editPost') await keepEditDraft(row, code);
  if (row.op.type === 'create') {
    await keepAsDraft(row);
    if (await db.posts.get(row.postId)) await noteRemovedPosts([row.postId]);
    await db.posts.delete(row.postId);
    await db.outbox.where('postId').equals(row.postId).delete();
    // Replies written here to the post that never was (an admin's own, approved offline) go with it.
    await db.replies.where('[postId+state]').between([row.postId, Dexie.minKey], [row.postId, Dexie.maxKey]).delete();
    return;
  }
  const post = await db.posts.get(row.postId);
  if (!post) return;
  if (post.sync) await refreshLocalView(row.postId);
  else if (row.op.type === 'like') await db.posts.update(row.postId, { likes: Math.max(0, post.likes - (row.op.count ?? 1)) });
  else if (row.op.type === 'view') await db.posts.update(row.postId, { views: Math.max(0, post.views - 1) });
  else if (row.previousStatus) await db.posts.update(row.postId, { status: row.previousStatus, rev: await nextRev() });
}

/**
 * A create the server applied while its post was being deleted here (the deletion dropped the
 * create, not knowing it was on its way): the server's post is deleted too, when the deletion's
 * Undo window ends (Undo puts the create back; sent again, the server answers it as a duplicate).
 */
async function deletedBeforeAnswer(sent: OutboxRow, result: Settled): Promise<void> {
  const serverId = result.postId ?? result.post?.id;
  if (sent.op.type !== 'create' || serverId === undefined) return;
  const entry = (await listUndoEntries()).find((candidate) => candidate.createOpId === sent.op.id);
  if (!entry || entry.opSeq !== undefined) return;
  const options = { holdUntil: entry.until + UNDO_GRACE_MS, undoToken: entry.token };
  const opSeq = await queueOperation({ type: 'deletePost' }, serverId, { email: sent.email }, options);
  await putUndoEntry({ ...entry, opSeq });
}

/**
 * Applies the answers to one pushed batch in one transaction. Operations another tab already
 * settled are skipped; an operation with no answer stays queued. Returns the refusals.
 */
export async function applyPushResults(batch: readonly OutboxRow[], results: readonly OpResult[], cursor: number): Promise<Refusal[]> {
  const byId = new Map(results.map((result) => [result.id, result]));
  const refusals: Refusal[] = [];
  const followed: PreferenceEffects[] = [];
  const tables = [db.posts, db.replies, db.viewed, db.meta, db.outbox, db.flags, db.notifications, db.saved, db.preferences, db.accounts];
  await db.transaction('rw', tables, async () => {
    for (const sent of batch) {
      const result = byId.get(sent.op.id);
      const row = await db.outbox.get(sent.seq!);
      if (!row && result && (result.status === 'applied' || result.status === 'duplicate')) await deletedBeforeAnswer(sent, result);
      // No answer, or `failed` (the server could not apply it this time): it stays queued.
      if (!result || result.status === 'failed' || !row || row.ackCursor !== undefined) continue;
      if (result.status === 'refused') {
        const aboutNoPost = row.op.type === 'readNotifications' || row.op.type === 'setTheme' || row.op.type === 'rename';
        const title = aboutNoPost ? undefined : (await db.posts.get(row.postId))?.title;
        await undo(row, result.code, followed);
        refusals.push({ op: row.op, code: result.code, reason: result.reason, ...(title === undefined ? {} : { title }) });
      } else {
        await acknowledge(row, result, cursor);
      }
    }
    await countChange();
  });
  for (const effects of followed) followPreferences(effects);
  emitLocalChange('synced');
  return refusals;
}
