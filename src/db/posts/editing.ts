// Editing and deleting posts (issue 21): the author's edit of their own post (the shared edit rule,
// editedPost), a deletion by its author or an admin that Undo reverses for UNDO_WINDOW_MS, and the
// kept text of an edit the server refused. Each write is one Dexie transaction that also queues its
// operation (connected mode); a deletion's operation is held until its Undo window is over.

import Dexie from 'dexie';
import { db, type PostRow } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange, nextRev } from '../core/revisions';
import { noteRemovedPosts } from '../core/removals';
import { settleFlags, targetsOfPost } from '../core/flag-rows';
import { getUndoEntry, purgeExpiredUndoEntries, putUndoEntry, restoreUndoEntry, UNDO_GRACE_MS, type UndoEntry } from '../core/undo';
import { DataError, invalidInput, withDataErrors } from '../core/errors';
import { requireSession } from '../accounts/guards';
import { maySee, toEditablePost } from './posts';
import { editDraftMetaKey } from '../contracts';
import { validateNewPost, validateTags } from '../../shared/validation';
import {
  editedPost,
  mayDeletePost,
  mayEditPost,
  UNDO_WINDOW_MS,
  type NewPostFields,
  type Post,
  type PostEdits,
} from '../../shared/post-rules';
import { isUnsentCreate, operationsFor, queueOperation, reachesServer, withServerFields } from '../sync/outbox';
import { newOperationId } from '../sync/uuid';
import { showNewestReplies } from '../sync/server-replies';
import { DEFAULT_CATEGORY, isCategory, type Session } from '../types';

/** A post as the post page and the lists show it: its fields plus its edits. */
export type EditablePost = Post & PostEdits;

/** What a deletion returns: pass it to undoDeletion within UNDO_WINDOW_MS. */
export interface UndoToken {
  token: string;
  /** When Undo stops working (ms since the epoch). */
  until: number;
}

const run = withDataErrors;
const DELETE_TABLES = [db.posts, db.replies, db.viewed, db.meta, db.outbox, db.flags] as const;

/** The fields as the New Post form checks them: the rules of validation.ts, trimmed, category as createPost takes it. */
function checkedFields(fields: NewPostFields): NewPostFields {
  const problem = validateNewPost(fields.title, fields.content) ?? (fields.tags ? validateTags(fields.tags) : null);
  if (problem) throw invalidInput(problem);
  const category = isCategory(fields.category) ? fields.category : DEFAULT_CATEGORY;
  const checked: NewPostFields = { title: fields.title.trim(), content: fields.content.trim(), category };
  if (fields.tags) checked.tags = fields.tags.map((tag) => tag.trim());
  return checked;
}

/**
 * Queues the edit for the server when the post goes there. A create not answered yet carries the
 * new text too (a refused create keeps the newest text as the draft), and the edit is queued all
 * the same: that create may be on its way already, and its answer must not bring back the old text.
 */
async function queueEdit(row: PostRow, fields: NewPostFields, session: Session): Promise<void> {
  if (!(await reachesServer(row.id))) return;
  if (await isUnsentCreate(row.id)) {
    const post = { title: fields.title, content: fields.content, category: fields.category, tags: fields.tags ?? row.tags };
    await db.outbox
      .where('postId')
      .equals(row.id)
      .filter((entry) => entry.op.type === 'create' && entry.ackCursor === undefined)
      .modify((entry) => {
        entry.op = { ...entry.op, post } as typeof entry.op;
      });
  }
  await queueOperation({ type: 'editPost', post: fields, base: row.status }, row.id, session);
}

/**
 * Saves the author's edit of their own post (title, content, category; tags stay unless given),
 * following editedPost of src/shared/post-rules.ts: a rejected post becomes pending (resubmitted),
 * an approved one stays approved and shows "edited". Throws `invalid` (the New Post rules),
 * `not_found`, `not_your_post`. The edit's kept draft (if any) is cleared.
 */
export async function editPost(id: number, fields: NewPostFields): Promise<EditablePost> {
  const session = requireSession();
  const checked = checkedFields(fields);
  const post = await run(() =>
    db.transaction('rw', [db.posts, db.meta, db.outbox], async () => {
      const row = await db.posts.get(id);
      if (!row || !maySee(row, session)) throw new DataError('not_found', { postId: id });
      if (!mayEditPost(row, session)) throw new DataError('not_your_post', { postId: id });
      // The server's text is kept while the edit is outstanding (a refusal puts it back).
      const edited: PostRow = { ...editedPost(row, checked, Date.now()), rev: await nextRev() };
      // A resubmission waits for review again, from now, without the old reason.
      if (row.status !== 'pending' && edited.status === 'pending') {
        edited.submittedAt = Date.now();
        edited.reason = null;
      }
      const sync = withServerFields(row);
      if (sync) edited.sync = sync;
      await db.posts.put(edited);
      await countChange();
      await queueEdit(row, checked, session);
      await db.meta.delete(editDraftMetaKey(session.email, id));
      return toEditablePost(edited, session);
    }),
  );
  emitLocalChange('post-edited');
  return post;
}

/**
 * Deletes a post (its author, or an admin) and its replies from this device at once, in every
 * tab and the mirror; the server hears of it after UNDO_WINDOW_MS unless undone. Throws
 * `not_found`, `not_your_post`.
 */
export async function deletePost(id: number): Promise<UndoToken> {
  const session = requireSession();
  const now = Date.now();
  const undo: UndoToken = { token: newOperationId(), until: now + UNDO_WINDOW_MS };
  await run(() =>
    db.transaction('rw', DELETE_TABLES, async () => {
      await purgeExpiredUndoEntries(now);
      const row = await db.posts.get(id);
      if (!row || !maySee(row, session)) throw new DataError('not_found', { postId: id });
      if (!mayDeletePost(row, session)) throw new DataError('not_your_post', { postId: id });
      const replies = await db.replies.where('[postId+state]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray();
      const viewed = await db.viewed.filter((view) => view.postId === id).toArray();
      // What is still queued about the post is never sent now (Undo puts it back; sent again, the
      // server answers what it had applied as duplicates). A create not answered yet goes too: the
      // server then never hears of the post.
      const queued = await operationsFor(id);
      const create = queued.find((entry) => entry.op.type === 'create' && entry.ackCursor === undefined);
      // A create that may have reached the server (a push took it, its answer not here yet, or
      // lost) stays queued: sent again, the server answers with its post, which the held
      // deletion then deletes. Only a create never taken by a push goes with the post.
      const sentCreate = create?.sentAt !== undefined ? create : undefined;
      const ops = queued.filter((entry) => entry !== sentCreate);
      const entry: UndoEntry = { token: undo.token, email: session.email, until: undo.until, post: row, replies, viewed, ops };
      if (create && !sentCreate) entry.createOpId = create.op.id;
      if (sentCreate) entry.sentCreateOpId = sentCreate.op.id;
      await db.outbox.bulkDelete(ops.map((op) => op.seq!));
      await db.replies.bulkDelete(replies.map((reply) => reply.id));
      await db.viewed.bulkDelete(viewed.map((view) => [view.email, view.postId] as [string, number]));
      await db.posts.delete(id);
      await noteRemovedPosts([id]);
      await countChange();
      // Its flags (and its replies') are settled; Undo opens them again.
      entry.flags = await settleFlags(targetsOfPost(id, replies), 'resolved');
      if (row.sync || sentCreate) {
        const options = { holdUntil: undo.until + UNDO_GRACE_MS, undoToken: undo.token };
        entry.opSeq = await queueOperation({ type: 'deletePost' }, id, session, options);
      }
      await putUndoEntry(entry);
    }),
  );
  emitLocalChange('post-deleted');
  return undo;
}

/**
 * Puts back what a deletion (of a post, or of a reply) removed and drops its held operation;
 * throws `too_late_to_undo` once the operation may have been sent (its hold is over), or, with no
 * operation, after the window and its grace.
 */
export async function undoDeletion(token: UndoToken): Promise<void> {
  await run(() =>
    db.transaction('rw', DELETE_TABLES, async () => {
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
  emitLocalChange('deletion-undone');
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
