// What a synced post shows on this device: the server's last word on it plus the operations this
// device made that the server has not yet acknowledged, or has acknowledged in a change this
// device has not pulled yet. This is why a like is never counted twice and never lost.

import type { OutboxRow, ServerState } from '../core/schema';
import type { PostStatus } from '../types';

/** True while an operation's effect is not yet part of `server` (so the device adds it itself). */
export function isOutstanding(row: OutboxRow, server: ServerState | undefined): boolean {
  if (row.ackCursor === undefined) return true;
  return server === undefined || server.seq < row.ackCursor;
}

/** The likes and status a post shows: the server's state with the outstanding operations on top. */
export function localView(server: ServerState, ops: readonly OutboxRow[]): { likes: number; status: PostStatus } {
  let { likes, status } = server;
  for (const row of ops) {
    if (!isOutstanding(row, server)) continue;
    const { op } = row;
    if (op.type === 'like') likes += op.count ?? 1;
    else if (op.type === 'approve' && status === 'pending') status = 'approved';
    else if (op.type === 'reject' && status === 'pending') status = 'rejected';
  }
  return { likes, status };
}
