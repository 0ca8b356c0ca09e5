// Flags and notifications as rows and as the wire shapes (WireFlag, WireNotification of
// docs/sync-protocol.md), and the two writes every operation that touches them shares: writing the
// notifications the rules of src/shared/moderation.ts decided, and settling an item's open flags.
// Both write at the caller's change number, inside its transaction.
import { randomUUID } from 'node:crypto';
import type { FlagState, NewNotification } from '../../src/shared/moderation';
import type { WireFlag, WireNotification } from '../../src/shared/protocol';
import type { Sql } from './adapter';

type Row = Record<string, unknown>;

/** What a posts row is to the rules of moderation.ts. */
export const rulesPost = (row: Row) => ({ id: Number(row.id), title: String(row.title), authorEmail: String(row.author_email) });

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

/** A flags row joined with its flagger (`flagger`, `flagger_email`) as the wire sends it. */
export function toWireFlag(row: Row): WireFlag {
  return {
    id: String(row.id),
    postId: Number(row.post_id),
    replyId: textOrNull(row.reply_id),
    reason: row.reason as WireFlag['reason'],
    text: String(row.text),
    flagger: String(row.flagger),
    flaggerEmail: String(row.flagger_email),
    createdAt: Number(row.created_at),
    state: row.state as WireFlag['state'],
    seq: Number(row.seq),
  };
}

/** The notifications columns, for a SELECT from `notifications` named `alias`. */
export const notificationColumns = (alias: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.post_id, ${alias}.reply_id, ${alias}.actor, ${alias}.post_title, ${alias}.reason,
   ${alias}.created_at, ${alias}.read_at, ${alias}.seq`;

/** The flags columns with the flagger's name and email, for a SELECT from `flags` named `alias` joined with `users` named `who`. */
export const flagColumns = (alias: string, who: string) =>
  `${alias}.id, ${alias}.post_id, ${alias}.reply_id, ${alias}.reason, ${alias}.text, ${who}.name AS flagger, ${who}.email AS flagger_email,
   ${alias}.created_at, ${alias}.state, ${alias}.seq`;

/**
 * Writes `list` at change number `seq`, one row per recipient who has an account (a recipient
 * known only by an email, a sample post's author, gets none). One statement for the whole list.
 */
export async function writeNotifications(tx: Sql, list: readonly NewNotification[], seq: number, now = Date.now()): Promise<void> {
  if (list.length === 0) return;
  const rows = list.map((notification) => ({ ...notification, id: randomUUID() }));
  await tx.query(
    `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, actor, post_title, reason, created_at, read_at, seq)
     SELECT (e->>'id')::uuid, u.id, e->>'kind', (e->>'postId')::bigint, (e->>'replyId')::uuid, e->>'actor', e->>'postTitle',
       e->>'reason', $2::bigint, NULL, $3::bigint
     FROM jsonb_array_elements($1::text::jsonb) e JOIN users u ON u.email = e->>'recipientEmail'`,
    [JSON.stringify(rows), now, seq],
  );
}

/**
 * Which open flags a settlement reaches: the post's own (`replyId` null), one reply's, or (`'all'`)
 * the post's and every one of its replies' (a deleted post).
 */
export interface SettledTarget {
  postId: number | string;
  replyId: string | null | 'all';
}

/** Moves the open flags of `target` to `state` at change number `seq`; returns how many moved. */
export async function settleFlags(tx: Sql, target: SettledTarget, state: Exclude<FlagState, 'open'>, seq: number): Promise<number> {
  const which = target.replyId === 'all' ? '' : target.replyId === null ? ' AND reply_id IS NULL' : ' AND reply_id = $4::uuid';
  const params: unknown[] = [target.postId, state, seq];
  if (target.replyId !== null && target.replyId !== 'all') params.push(target.replyId);
  const moved = await tx.query(`UPDATE flags SET state = $2, seq = $3 WHERE post_id = $1 AND state = 'open'${which} RETURNING id`, params);
  return moved.length;
}
