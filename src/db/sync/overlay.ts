// What a synced post shows on this device: the server's last word on it plus the operations this
// device made that the server has not yet acknowledged, or has acknowledged in a change this
// device has not pulled yet. This is why a like is never counted twice and never lost.

import type { OutboxRow, ReplyRow, ReplyServerState, ServerState } from '../core/schema';
import type { PostStatus } from '../types';

/** True while an operation's effect is not yet part of `server` (so the device adds it itself). */
export function isOutstanding(row: OutboxRow, server: { seq: number } | undefined): boolean {
  if (row.ackCursor === undefined) return true;
  return server === undefined || server.seq < row.ackCursor;
}

/**
 * The likes, views and status a post shows: the server's state with the outstanding operations on
 * top. A view is only queued the first time this member opens the post on this device; the server
 * counts it once per member, so its answer may leave the count as it was.
 */
export function localView(
  server: ServerState,
  ops: readonly OutboxRow[],
  rowViews = 0,
): { likes: number; views: number; status: PostStatus } {
  let { likes, status } = server;
  // A row stored before the server's view count was kept: its own count stands.
  let views = server.views ?? rowViews;
  for (const row of ops) {
    if (!isOutstanding(row, server)) continue;
    const { op } = row;
    if (op.type === 'like') likes += op.count ?? 1;
    else if (op.type === 'view') views += 1;
    else if (op.type === 'approve' && status === 'pending') status = 'approved';
    else if (op.type === 'reject' && status === 'pending') status = 'rejected';
  }
  return { likes, views, status };
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
