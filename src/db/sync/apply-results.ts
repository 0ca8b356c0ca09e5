// Applying the server's answers to a push (connected mode). An acknowledged operation waits in the
// outbox, marked with the change number that holds it, until a pull has passed that number; what the
// answer carries (its post, reply or flag) is stored at once. A create re-keys its temporary row to
// the server's id. A refused operation leaves the outbox and every row it touched shows the server's
// word again with what is still outstanding on top (rebase.ts); what the member wrote in it is kept
// as a draft (its definition's `keeps`), what it made is taken away (`creates`), and a refused
// deletion puts back what it removed. The refusals are returned, so the app can say why.

import Dexie from 'dexie';
import { db, type OutboxRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import type { Op, OpResult, WirePost } from '../../shared/protocol';
import { definitionOf } from '../../shared/ops/registry';
import { dropConversation } from '../messages/pulled';
import { keepRefusedMessage } from '../messages/drafts';
import { postFields } from '../../shared/ops/fields';
import { newOp, NO_POST_ID, queueOperation } from '../ops/outbox';
import { rekeyPost, storeServerPosts } from '../posts/pulled';
import { SYNC_META } from '../ops/sync-meta';
import { draftMetaKey, editDraftMetaKey, nameDraftMetaKey, replyDraftMetaKey } from '../contracts';
import type { RefusedName } from '../preferences/preferences';
import { deleteUndoEntry, getUndoEntry, listUndoEntries, putUndoEntry, restoreUndoEntry, UNDO_GRACE_MS, type UndoEntry } from '../ops/undo';
import { recountComments } from '../replies/reply-counts';
import { noteRemovedPosts } from '../storage/removals';
import { showNewestReplies, storeServerReplies } from '../replies/pulled';
import { storeServerFlags } from '../flags/pulled';
import { followPreferences } from '../preferences/pulled';
import { OP_TABLES } from '../ops/op-tables';
import { rebase } from './rebase';
import { keepDraft } from '../groups/kept-drafts';
import { filesNamedBy, keptAttachments } from '../ops/files-named';
import type { Attachment } from '../../shared/attachments';

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
    if (held && definitionOf(held.op.type).removes === 'post')
      await db.outbox.update(held.seq!, { postId: serverId, op: { ...held.op, postId: serverId } as Op });
    const post = entry.post && { ...entry.post, id: serverId, sync: entry.post.sync ?? { seq: 0, likes: 0, status: 'pending' as const } };
    const ops = entry.ops.map((row) => ({ ...move(row), op: 'postId' in row.op ? { ...row.op, postId: serverId } : row.op }));
    const rest: Partial<UndoEntry> = { sentCreateOpId: undefined };
    await putUndoEntry({ ...entry, ...rest, post, ops, replies: entry.replies.map(move), viewed: entry.viewed.map(move) });
  }
}

/**
 * Stores what the answer carries and marks the operation with the change number that holds it
 * (the answer's; a retry of an operation recorded before the server kept it: the newest of the rows
 * its answer carries, else the push's cursor): it leaves the outbox once a pull has passed it, and until then it is replayed
 * only over rows older than that change.
 */
async function acknowledge(row: OutboxRow, result: Settled, cursor: number): Promise<void> {
  const { op } = row;
  // A deletion the server applied can no longer be undone: what it kept is not needed.
  await deleteUndoEntry(row.undoToken);
  // A new post's temporary row moves to the server's id.
  if (definitionOf(op.type).creates === 'post') {
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
  const carried = [result.post?.seq, result.reply?.seq, result.flag?.seq].filter((seq): seq is number => seq !== undefined);
  await db.outbox.update(row.seq!, { ackCursor: result.seq ?? (carried.length > 0 ? Math.max(...carried) : cursor) });
  if (result.post) await storeServerPosts([result.post as WirePost]);
  if (result.reply) await storeServerReplies([result.reply]);
  if (result.flag) await storeServerFlags([result.flag]);
}

/**
 * What the member wrote in a refused operation is never lost: a post's text becomes their New Post
 * draft, a reply's their reply box's, an edit's their edit draft of that post (a draft they are
 * writing already wins; an edit of a post gone meanwhile becomes the New Post draft if none); a
 * message its conversation's reply box's, a new conversation the New message dialog's, with the
 * refusal's sentence (messages/drafts.ts).
 */
async function keepWords(row: OutboxRow, code: string, reason: string): Promise<void> {
  const { op } = row;
  const kept = definitionOf(op.type).keeps;
  // A new post's and an edit's words are its `post`; a reply's, its row.
  const written = (op as { post?: unknown }).post as {
    title?: unknown;
    content?: unknown;
    category?: unknown;
    tags?: unknown;
    attachments?: unknown;
  };
  if (kept === 'post') {
    const { title, content, category, tags } = written;
    const key = draftMetaKey(row.email);
    if (typeof title !== 'string' || typeof content !== 'string' || (await db.meta.get(key))) return;
    // Its tags and the files it named (still on this device) come back with it.
    const tagText = Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string').join(', ') : '';
    const named = (written.attachments as { name?: unknown }[] | undefined) ?? [];
    const wanted = filesNamedBy(op).map((sha256, index) => ({ sha256, name: String(named[index]?.name ?? '') }));
    const attachments = (await keptAttachments(wanted)).filter((file): file is Attachment => file !== undefined);
    await db.meta.put({
      key,
      value: {
        title,
        content,
        category: typeof category === 'string' ? category : '',
        ...(tagText ? { tags: tagText } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
        savedAt: Date.now(),
      },
    });
  } else if (kept === 'reply' && definitionOf(op.type).creates === 'reply') {
    const key = replyDraftMetaKey(row.email, row.postId);
    const reply = await db.replies.get(op.id);
    if (!reply || reply.sync) return;
    // Its post is no longer on this device (the member may no longer see it): no reply box to put it
    // back in, so a kept draft to copy. While it is, the box's text becomes one when the post leaves (sync/revoked.ts).
    if (code === 'not_found' && !(await db.posts.get(row.postId))) await keepDraft(row.email, op.id, reply.content, row.postId);
    else if (!(await db.meta.get(key))) await db.meta.put({ key, value: reply.content });
  } else if (kept === 'message') {
    const creates = definitionOf(op.type).creates;
    if (creates === 'message' || creates === 'conversation') await keepRefusedMessage(row, reason, creates);
  } else if (kept === 'name') {
    // A display name someone else took: Edit Profile opens with it and the sentence (preferences.ts).
    const { name } = op as { name?: unknown };
    if (typeof name === 'string') await db.meta.put({ key: nameDraftMetaKey(row.email), value: { name, reason } satisfies RefusedName });
  } else if (kept === 'edit') {
    let fields;
    try {
      fields = postFields(written);
    } catch {
      return;
    }
    const value = { ...fields, savedAt: Date.now() };
    const draft = draftMetaKey(row.email);
    if (code === 'not_found' && !(await db.meta.get(draft))) await db.meta.put({ key: draft, value });
    else await db.meta.put({ key: editDraftMetaKey(row.email, row.postId), value });
  }
}

/** What a refused operation made here, which the server never had, leaves again (its definition's `creates`). */
async function takeAwayCreated(row: OutboxRow): Promise<void> {
  const { op } = row;
  const made = definitionOf(op.type).creates;
  if (made === 'post') {
    if (await db.posts.get(row.postId)) await noteRemovedPosts([row.postId]);
    await db.posts.delete(row.postId);
    await db.outbox.where('postId').equals(row.postId).delete();
    // Replies written here to the post that never was (an admin's own, approved offline) go with it.
    await db.replies.where('[postId+state]').between([row.postId, Dexie.minKey], [row.postId, Dexie.maxKey]).delete();
  } else if (made === 'reply') {
    const reply = await db.replies.get(op.id);
    if (!reply || reply.sync) return;
    await db.replies.delete(op.id);
    await db.outbox
      .where('postId')
      .equals(row.postId)
      .filter((entry) => entry.replyId === op.id)
      .delete();
    await recountComments(reply.postId);
  } else if (made === 'flag') {
    const flag = await db.flags.get(op.id);
    if (flag && !flag.sync) await db.flags.delete(op.id);
  } else if (made === 'conversation' && 'conversationId' in op) {
    // A conversation the server never started (no change number here) leaves with its messages.
    const conversation = await db.conversations.get(op.conversationId);
    if (conversation && conversation.seq === undefined) await dropConversation(op.conversationId);
  } else if (made === 'message') {
    const message = await db.messages.get(op.id);
    if (message && message.seq === undefined) await db.messages.delete(op.id);
  }
}

/**
 * A refused deletion puts back what it removed (the server keeps the post: `not_your_post`), unless
 * the post is gone anyway (`not_found`).
 */
async function undoDeletion(row: OutboxRow, code: string): Promise<void> {
  const entry = row.undoToken ? await getUndoEntry(row.undoToken) : undefined;
  if (!entry) return;
  if (code === 'not_found' || code === 'reply_not_found') await deleteUndoEntry(entry.token);
  else if (definitionOf(row.op.type).removes === 'post') {
    await restoreUndoEntry(entry);
    await showNewestReplies(entry.replies);
  } else await deleteUndoEntry(entry.token); // a reply: the server's state comes back with the rebase
}

/** Undoes a refused operation on this device (the rows it touched are rebased by the caller). */
async function undo(row: OutboxRow, code: string, reason: string): Promise<void> {
  await db.outbox.delete(row.seq!);
  if (row.undoToken) await undoDeletion(row, code);
  await keepWords(row, code, reason);
  await takeAwayCreated(row);
}

/**
 * A create the server applied while its post was being deleted here (the deletion dropped the
 * create, not knowing it was on its way): the server's post is deleted too, when the deletion's
 * Undo window ends (Undo puts the create back; sent again, the server answers it as a duplicate).
 */
async function deletedBeforeAnswer(sent: OutboxRow, result: Settled): Promise<void> {
  const serverId = result.postId ?? result.post?.id;
  if (definitionOf(sent.op.type).creates !== 'post' || serverId === undefined) return;
  const entry = (await listUndoEntries()).find((candidate) => candidate.createOpId === sent.op.id);
  if (!entry || entry.opSeq !== undefined) return;
  const options = { holdUntil: entry.until + UNDO_GRACE_MS, undoToken: entry.token };
  const opSeq = await queueOperation(newOp('deletePost', { postId: serverId }), serverId, { email: sent.email, role: sent.role }, options);
  await putUndoEntry({ ...entry, opSeq });
}

/**
 * Applies the answers to one pushed batch in one transaction. Operations another tab already
 * settled are skipped; an operation with no answer stays queued. Returns the refusals.
 */
export async function applyPushResults(batch: readonly OutboxRow[], results: readonly OpResult[], cursor: number): Promise<Refusal[]> {
  const byId = new Map(results.map((result) => [result.id, result]));
  const refusals: Refusal[] = [];
  const { effects } = await db.transaction('rw', OP_TABLES(), async () => {
    const touched: OutboxRow[] = [];
    for (const sent of batch) {
      const result = byId.get(sent.op.id);
      const row = await db.outbox.get(sent.seq!);
      if (!row && result && (result.status === 'applied' || result.status === 'duplicate')) await deletedBeforeAnswer(sent, result);
      // No answer, or `failed` (the server could not apply it this time): it stays queued.
      if (!result || result.status === 'failed' || !row || row.ackCursor !== undefined) continue;
      if (result.status === 'refused') {
        const title = row.postId === NO_POST_ID ? undefined : (await db.posts.get(row.postId))?.title;
        await undo(row, result.code, result.reason);
        refusals.push({ op: row.op, code: result.code, reason: result.reason, ...(title === undefined ? {} : { title }) });
      } else {
        await acknowledge(row, result, cursor);
      }
      touched.push(row);
    }
    const followed = await rebase(touched);
    await countChange();
    return { effects: followed };
  });
  for (const effect of effects) followPreferences(effect);
  emitLocalChange('synced');
  return refusals;
}
