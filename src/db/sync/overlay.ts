// What a synced post shows on this device: the server's last word on it plus the operations this
// device made that the server has not yet acknowledged, or has acknowledged in a change this
// device has not pulled yet. This is why a like is never counted twice and never lost.

import type { OutboxRow, PostRow, ReplyRow, ReplyServerState, ServerFields, ServerState } from '../core/schema';
import { editedPost, type NewPostFields } from '../../shared/post-rules';
import type { Post, PostStatus } from '../types';

/** True while an operation's effect is not yet part of `server` (so the device adds it itself). */
export function isOutstanding(row: OutboxRow, server: { seq: number } | undefined): boolean {
  if (row.ackCursor === undefined) return true;
  return server === undefined || server.seq < row.ackCursor;
}

/** What a synced post shows of its server state plus outstanding operations. */
export type LocalView = { likes: number; views: number; status: PostStatus; reason: string | null } & Partial<ServerFields>;

/** The reason an operation carries (a reject's or hidePost's), or null. */
const reasonOf = (op: OutboxRow['op']): string | null => ('reason' in op && typeof op.reason === 'string' && op.reason ? op.reason : null);

/** The fields an editPost operation carries (checked when it was made; anything else reads as none). */
export function editFields(op: OutboxRow['op']): NewPostFields | undefined {
  if (op.type !== 'editPost') return undefined;
  const { title, content, category, tags } = op.post as Partial<Record<keyof NewPostFields, unknown>>;
  if (typeof title !== 'string' || typeof content !== 'string' || typeof category !== 'string') return undefined;
  return Array.isArray(tags) ? { title, content, category, tags: tags.map(String) } : { title, content, category };
}

/** The server's text and edits of a post as a row holds them (for ServerState.fields). */
export function fieldsOf(row: Pick<PostRow, keyof ServerFields>): ServerFields {
  return {
    title: row.title,
    content: row.content,
    category: row.category,
    tags: row.tags,
    editedAt: row.editedAt ?? null,
    resubmitted: row.resubmitted ?? false,
    previous: row.previous ?? null,
  };
}

/**
 * The likes, views and status a post shows: the server's state with the outstanding operations on
 * top; with the server's text kept (`server.fields`), its text and edits too. A view is only
 * queued the first time this member opens the post on this device; the server counts it once per
 * member, so its answer may leave the count as it was. An edit applies only over the status its
 * author saw (`base`): over another one the server refuses it (edit_conflict).
 */
export function localView(server: ServerState, ops: readonly OutboxRow[], rowViews = 0): LocalView {
  let { likes, status } = server;
  let reason = server.reason ?? null;
  // A row stored before the server's view count was kept: its own count stands.
  let views = server.views ?? rowViews;
  let text: (Post & ServerFields) | undefined = server.fields && ({ ...server.fields, status } as Post & ServerFields);
  for (const row of ops) {
    if (!isOutstanding(row, server)) continue;
    const { op } = row;
    if (op.type === 'like') likes += op.count ?? 1;
    else if (op.type === 'view') views += 1;
    else if (op.type === 'approve' && status === 'pending') {
      status = 'approved';
      reason = null;
    } else if (op.type === 'reject' && status === 'pending') {
      status = 'rejected';
      reason = reasonOf(op);
    } else if (op.type === 'hidePost' && status === 'approved') {
      status = 'rejected';
      reason = reasonOf(op);
    } else if (op.type === 'editPost' && op.base === status) {
      const fields = editFields(op);
      if (!fields) continue;
      if (text) text = editedPost({ ...text, status }, fields, row.at ?? Date.now());
      else if (status === 'rejected') status = 'pending';
      if (text) status = text.status;
      // A resubmitted post waits for review again, without the old reason.
      if (status === 'pending') reason = null;
    }
  }
  if (!text) return { likes, views, status, reason };
  const { title, content, category, tags, editedAt, resubmitted, previous } = text;
  return { likes, views, status, reason, title, content, category, tags, editedAt, resubmitted, previous };
}

/** The text, state and edit time a synced reply shows: the server's with the outstanding reply operations on top. */
export function localReplyView(server: ReplyServerState, ops: readonly OutboxRow[]): Pick<ReplyRow, 'content' | 'state' | 'editedAt'> {
  let { content, state, editedAt } = server;
  for (const row of ops) {
    if (!isOutstanding(row, server)) continue;
    const { op } = row;
    if (op.type === 'editReply' && state === 'visible' && typeof op.content === 'string') {
      content = op.content;
      editedAt = row.at ?? editedAt;
    } else if (op.type === 'deleteReply') {
      state = 'deleted';
      content = '';
    } else if (op.type === 'hideReply' && state === 'visible') state = 'hidden';
    else if (op.type === 'restoreReply' && state === 'hidden') state = 'visible';
  }
  return { content, state, editedAt };
}
