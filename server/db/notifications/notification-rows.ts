// Notifications as rows and as the wire shape (WireNotification of docs/sync-protocol.md): the one
// mapping between the notifications table's columns and what a pull sends to their recipient.
import type { WireNotification } from '../../../src/shared/protocol';

type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A notifications row as its recipient receives it. */
export function toWireNotification(row: Row): WireNotification {
  return {
    id: String(row.id),
    kind: row.kind as WireNotification['kind'],
    postId: Number(row.post_id),
    replyId: textOrNull(row.reply_id),
    actor: textOrNull(row.actor),
    postTitle: String(row.post_title),
    reason: textOrNull(row.reason),
    createdAt: Number(row.created_at),
    readAt: msOrNull(row.read_at),
    seq: Number(row.seq),
  };
}

/** The notifications columns, for a SELECT from `notifications` named `alias`. */
export const notificationColumns = (alias: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.post_id, ${alias}.reply_id, ${alias}.actor, ${alias}.post_title, ${alias}.reason,
   ${alias}.created_at, ${alias}.read_at, ${alias}.seq`;
