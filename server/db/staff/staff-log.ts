// The staff log (migration 11): every staff action (reviews, hides and restores, dismissed flags, an
// admin's deletion of someone else's post or reply, suspensions, silences, deleted spammers, changed
// limits) as one row, written in the transaction of the action itself, so it is there exactly when
// the action is; read by /admin/log, newest first.
import { definitionOf } from '../../../src/shared/ops/registry';
import type { LoggedAction } from '../../../src/shared/staff-actions';
import type { Op, StaffLogEntry, StaffLogPage } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import type { SqlStore } from '../ops/sql-store';
import type { Sql } from '../storage/adapter';
import { parsedJson } from '../storage/json-column';

/** What an operation was about (apply.ts): its post and reply. */
interface About {
  postId: number | null;
  replyId: string | null;
}

/** One staff action to write. */
export interface StaffEntry {
  actorId: number;
  /** An operation's type (its definition says it is a staff action) or one of the other staff actions. */
  action: LoggedAction;
  /** The member it reached (users.id), or, for a post or reply, its author's email. */
  memberId?: number;
  authorEmail?: string;
  postId?: number | null;
  replyId?: string | null;
  title?: string | null;
  reason?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Writes one entry (inside the caller's transaction). */
export async function writeStaffEntry(tx: Sql, entry: StaffEntry, at = Date.now()): Promise<void> {
  await tx.query(
    `INSERT INTO staff_log (at, actor_id, action, member_id, post_id, reply_id, title, reason, detail)
     VALUES ($1, $2, $3, coalesce($4::bigint, (SELECT id FROM users WHERE email = $5)), $6, $7, $8, $9, $10::jsonb)`,
    [
      at,
      entry.actorId,
      entry.action,
      entry.memberId ?? null,
      entry.authorEmail ?? null,
      entry.postId ?? null,
      entry.replyId ?? null,
      entry.title ?? null,
      entry.reason ?? null,
      entry.detail ? JSON.stringify(entry.detail) : null,
    ],
  );
}

/**
 * Writes the staff log's entry for `op` applied by `user` when it is a staff action (see above): what
 * it reached as the operation read it before changing it (the post's title, its author), and the
 * reason or decision it carried.
 */
export async function logStaffAction(tx: Sql, store: SqlStore, user: UserRow, op: Op, args: unknown, about: About): Promise<void> {
  if (user.role !== 'admin') return;
  const post = about.postId === null ? undefined : store.before.get(`post:${about.postId}`);
  const reply = about.replyId === null ? undefined : store.before.get(`reply:${about.replyId}`);
  const subject = reply ?? post;
  // Which operations are the staff's is on their definitions (`staff`).
  const staff = definitionOf(op.type).staff;
  if (!staff) return;
  if (staff.when === 'othersWriting' && (!subject || subject.author_email === user.email)) return;
  const given = (args ?? {}) as { reason?: string | null; until?: number | null; silenced?: boolean; archived?: boolean };
  const detail: Record<string, unknown> = {};
  if (given.until !== undefined) detail.until = given.until;
  if (given.silenced !== undefined) detail.silenced = given.silenced;
  if (given.archived !== undefined) detail.archived = given.archived;
  await writeStaffEntry(tx, {
    actorId: user.id,
    action: op.type,
    memberId: store.target,
    authorEmail: subject ? String(subject.author_email) : undefined,
    postId: about.postId,
    replyId: about.replyId,
    // A post's title, or the name of the group the operation reached.
    title: post ? String(post.title) : (store.subjectName ?? null),
    reason: given.reason ?? null,
    detail: Object.keys(detail).length > 0 ? detail : null,
  });
}

/** How many entries one page of the log holds. */
export const LOG_PAGE = 50;

/** One page of the log, newest first: entries before `before` (an entry's id; none: the newest). */
export async function readStaffLog(sql: Sql, before?: number): Promise<StaffLogPage> {
  const rows = await sql.query(
    `SELECT l.id, l.at, l.action, l.post_id, l.reply_id, l.title, l.reason, l.detail,
       a.member_id AS actor_id, a.name AS actor_name, m.member_id AS member_id, m.name AS member_name
     FROM staff_log l JOIN users a ON a.id = l.actor_id LEFT JOIN users m ON m.id = l.member_id
     WHERE ($1::bigint IS NULL OR l.id < $1) ORDER BY l.id DESC LIMIT $2`,
    [before ?? null, LOG_PAGE + 1],
  );
  const entries = rows.slice(0, LOG_PAGE).map((row): StaffLogEntry => ({
    id: Number(row.id),
    at: Number(row.at),
    action: String(row.action),
    actor: { id: String(row.actor_id ?? ''), name: String(row.actor_name) },
    member:
      row.member_name === null || row.member_name === undefined ? null : { id: String(row.member_id ?? ''), name: String(row.member_name) },
    postId: row.post_id === null ? null : Number(row.post_id),
    replyId: row.reply_id === null ? null : String(row.reply_id),
    title: row.title === null ? null : String(row.title),
    reason: row.reason === null ? null : String(row.reason),
    detail: (parsedJson(row.detail) ?? null) as StaffLogEntry['detail'],
  }));
  return { entries, more: rows.length > LOG_PAGE };
}
