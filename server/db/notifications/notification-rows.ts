// Notifications as rows and as the wire shape (WireNotification of docs/sync-protocol.md): the one
// mapping between the notifications table's columns and what a pull sends to their recipient.
import type { WireNotification } from '../../../src/shared/protocol';

type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A notifications row (with its actor's account as notificationColumns reads it) as its recipient receives it. */
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
    // How many replies a collapsed `watching` notification stands for (issue 62); absent: one.
    ...(Number(row.count ?? 1) > 1 ? { count: Number(row.count) } : {}),
    actorId: textOrNull(row.actor_id),
    actorRole: textOrNull(row.actor_role),
    seq: Number(row.seq),
  };
}

/**
 * The notifications columns, for a SELECT from `notifications` named `alias` LEFT JOINed with the
 * actor's account (`users` named `actor`, on actor_id): the actor's name as it is now, their public
 * id and role (the Admin badge); a notification from before migration 10 keeps the stored name.
 */
export const notificationColumns = (alias: string, actor: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.post_id, ${alias}.reply_id, coalesce(${actor}.name, ${alias}.actor) AS actor,
   ${actor}.member_id AS actor_id, ${actor}.role AS actor_role, ${alias}.post_title, ${alias}.reason,
   ${alias}.created_at, ${alias}.read_at, ${alias}.count, ${alias}.seq`;
