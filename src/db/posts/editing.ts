// Editing and deleting posts: the operations editPost and deletePost (src/shared/ops, run here by
// ops/run.ts), a deletion's Undo for UNDO_WINDOW_MS, and the kept text of an edit the server refused.
// A deletion's operation is held in the outbox until its Undo window is over.

import { db } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { getUndoEntry, putUndoEntry, restoreUndoEntry, runUndoable, UNDO_GRACE_MS, type UndoEntry, type UndoToken } from '../ops/undo';

export type { UndoToken } from '../ops/undo';
import { DataError, withDataErrors } from '../storage/errors';
import { requireSession } from '../members/guards';
import { toEditablePost } from './posts';
import { editDraftMetaKey } from '../contracts';
import type { NewPostFields, Post, PostAttachments, PostEdits, PostPoll } from '../../shared/post-rules';
import { isUnsentCreate, operationsFor, queueOperation } from '../ops/outbox';
import { applyOperation } from '../ops/run';
import { definitionOf } from '../../shared/ops/registry';
import { OP_TABLES } from '../ops/op-tables';
import { showNewestReplies } from '../replies/pulled';
import { DEFAULT_CATEGORY } from '../types';
import { isKnownCategory } from '../groups/groups';

/** A post as the post page and the lists show it: its fields plus its edits. */
export type EditablePost = Post & PostEdits & PostPoll & PostAttachments;

const run = withDataErrors;

/**
 * A create not answered yet carries the edited text too (a refused create keeps the newest text as
 * the draft). The edit is queued all the same: that create may be on its way already, and its
 * answer must not bring back the old text.
 */
async function newestTextInCreate(postId: number, fields: NewPostFields): Promise<void> {
  if (!(await isUnsentCreate(postId))) return;
  const post = (await db.posts.get(postId))!;
  const text = { title: post.title, content: post.content, category: post.category, tags: fields.tags ?? post.tags };
  await db.outbox
    .where('postId')
    .equals(postId)
    .filter((entry) => definitionOf(entry.op.type).creates === 'post' && entry.ackCursor === undefined)
    .modify((entry) => {
      entry.op = { ...entry.op, post: text } as typeof entry.op;
    });
}

/**
 * Saves the author's edit of their own post (the `editPost` operation: title, content, category;
 * tags stay unless given): a rejected post becomes pending (resubmitted), an approved one stays
 * approved and shows "edited". Throws `invalid` (the New Post rules), `not_found`, `not_your_post`.
 * The edit's kept draft (if any) is cleared.
 */
export async function editPost(id: number, fields: NewPostFields): Promise<EditablePost> {
  const session = requireSession();
  const known = fields.category !== '' && (await run(() => isKnownCategory(fields.category)));
  const post = { ...fields, category: known ? fields.category : DEFAULT_CATEGORY };
  const edited = await run(() =>
    db.transaction('rw', OP_TABLES(), async () => {
      // The status the author edits over: the server refuses the edit if a review came in between.
      const base = (await db.posts.get(id))?.status ?? 'pending';
      await applyOperation(session, 'editPost', { postId: id, post, base });
      await newestTextInCreate(id, fields);
      await db.meta.delete(editDraftMetaKey(session.email, id));
      return toEditablePost((await db.posts.get(id))!, session);
    }),
  );
  emitLocalChange('op:editPost');
  return edited;
}

/**
 * Deletes a post (its author, or an admin: the `deletePost` operation) and its replies from this
 * device at once, in every tab and the mirror; the server hears of it after UNDO_WINDOW_MS unless
 * undone. Throws `not_found`, `not_your_post`.
 */
export async function deletePost(id: number): Promise<UndoToken> {
  const { undo } = await runUndoable(async ({ session, undo, held }) => {
    const synced = Boolean((await db.posts.get(id))?.sync);
    // What is still queued about the post is never sent now (Undo puts it back; sent again, the
    // server answers what it had applied as duplicates). A create not answered yet goes too: the
    // server then never hears of the post.
    const queued = await operationsFor(id);
    const create = queued.find((entry) => definitionOf(entry.op.type).creates === 'post' && entry.ackCursor === undefined);
    // A create that may have reached the server (a push took it, its answer not here yet, or
    // lost) stays queued: sent again, the server answers with its post, which the held
    // deletion then deletes. Only a create never taken by a push goes with the post.
    const sentCreate = create?.sentAt !== undefined ? create : undefined;
    const ops = queued.filter((entry) => entry !== sentCreate);
    const ran = await applyOperation(session, 'deletePost', { postId: id }, { queue: false });
    const { post, replies, viewed } = ran.store.removed!;
    // Its flags (and its replies') were settled; Undo opens them again.
    const entry: UndoEntry = {
      token: undo.token,
      email: session.email,
      until: undo.until,
      post,
      replies,
      viewed,
      ops,
      flags: ran.store.settledFlagIds,
    };
    if (create && !sentCreate) entry.createOpId = create.op.id;
    if (sentCreate) entry.sentCreateOpId = sentCreate.op.id;
    await db.outbox.bulkDelete(ops.map((op) => op.seq!));
    if (synced || sentCreate) entry.opSeq = await queueOperation(ran.op, id, session, held);
    await putUndoEntry(entry);
  });
  emitLocalChange('op:deletePost');
  return undo;
}

/**
 * Puts back what a deletion (of a post, or of a reply) removed and drops its held operation;
 * throws `too_late_to_undo` once the operation may have been sent (its hold is over), or, with no
 * operation, after the window and its grace.
 */
export async function undoDeletion(token: UndoToken): Promise<void> {
  await run(() =>
    db.transaction('rw', OP_TABLES(), async () => {
      const now = Date.now();
      const entry = await getUndoEntry(token.token);
      if (!entry) throw new DataError('too_late_to_undo');
      if (entry.opSeq !== undefined) {
        const held = await db.outbox.get(entry.opSeq);
        if (!held || held.holdUntil === undefined || now >= held.holdUntil) throw new DataError('too_late_to_undo');
        await db.outbox.delete(entry.opSeq);
      } else if (now >= entry.until + UNDO_GRACE_MS) {
        throw new DataError('too_late_to_undo');
      }
      await restoreUndoEntry(entry);
      await showNewestReplies(entry.replies);
    }),
  );
  emitLocalChange('undone');
}

/** The member's kept edit of a post (after the server refused it), or null. */
export async function loadEditDraft(email: string, postId: number): Promise<NewPostFields | null> {
  const row = await run(() => db.meta.get(editDraftMetaKey(email, postId)));
  const draft = row?.value as Partial<Record<keyof NewPostFields, unknown>> | undefined;
  if (!draft || typeof draft.title !== 'string' || typeof draft.content !== 'string') return null;
  const fields: NewPostFields = {
    title: draft.title,
    content: draft.content,
    category: typeof draft.category === 'string' ? draft.category : '',
  };
  if (Array.isArray(draft.tags)) fields.tags = draft.tags.filter((tag): tag is string => typeof tag === 'string');
  return fields;
}

/** Forgets the kept edit. */
export async function clearEditDraft(email: string, postId: number): Promise<void> {
  await run(() => db.meta.delete(editDraftMetaKey(email, postId)));
}
