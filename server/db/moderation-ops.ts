// Moderation and notifications (protocol version 4): hidePost and dismissFlags (admins), flag (any
// member, once per item ever), readNotifications (one's own). Each is one transaction in the pattern
// of ops.ts: the change_head row locked and one change number taken first, the op id claimed (a
// retry racing its first push answers `duplicate`) with the NOTIFY delivered at commit, and every
// row the op writes (the post, its flags, the notifications) given that one number. A refusal rolls
// everything back. Who hears of what is decided by src/shared/moderation.ts only.
import { z } from 'zod';
import type { WireErrorCode } from '../../src/shared/errors';
import { mayFlag, notificationsForReview, type FlagReason } from '../../src/shared/moderation';
import { flagInputSchema, reasonSchema, type ModerationOp, type Op, type ServerOpResult } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import type { Database, Sql } from './adapter';
import type { UserRow } from './accounts';
import { rulesPost, settleFlags, toWireFlag, writeNotifications } from './moderation-rows';
import { applyOnce, Refusal, refused } from './op-results';
import { toWirePost } from './post-rows';

const MODERATION_TYPES = ['hidePost', 'flag', 'dismissFlags', 'readNotifications'] as const;

/** True for the operations this file applies. */
export const isModerationOp = (op: Op): op is ModerationOp => (MODERATION_TYPES as readonly string[]).includes(op.type);

/** An applied result before its op id is added. */
type Applied = Omit<Extract<ServerOpResult, { status: 'applied' }>, 'id'>;

type Checked = { code: WireErrorCode; reason?: string } | Passed;
/** What passed the checks before the transaction: a reason (hidePost), a flag's input (flag), or nothing. */
type Passed = { reason: string | null } | { flag: { reason: FlagReason; text: string } };

const reasonField = z.object({ reason: reasonSchema.optional() });

/**
 * A rejection's or hide's reason as sent (absent or null: none): trimmed, null when empty, or the
 * refusal `invalid` with validateReason's sentence.
 */
export function checkReason(value: unknown): { reason: string | null } | { code: 'invalid'; reason: string } {
  const parsed = reasonField.safeParse({ reason: value ?? undefined });
  if (!parsed.success) return { code: 'invalid', reason: describeZodError(parsed.error) };
  return { reason: parsed.data.reason || null };
}

/** The refusal `op` gets before anything is looked up, or its checked text. */
function precheck(user: UserRow, op: ModerationOp): Checked {
  const admin = user.role === 'admin';
  switch (op.type) {
    case 'hidePost':
      return admin ? checkReason(op.reason) : { code: 'admins_only' };
    case 'dismissFlags':
      return admin ? { reason: null } : { code: 'admins_only' };
    case 'readNotifications':
      return { reason: null };
    case 'flag': {
      const parsed = flagInputSchema.safeParse({ reason: op.reason, text: op.text });
      return parsed.success ? { flag: parsed.data } : { code: 'invalid', reason: describeZodError(parsed.error) };
    }
  }
}

/** An approved post becomes rejected with `reason`; its open flags and its replies' are settled; its author hears of it. */
async function hidePost(tx: Sql, user: UserRow, postId: number, reason: string | null, seq: number): Promise<Applied> {
  const now = Date.now();
  const [row] = await tx.query(
    `UPDATE posts SET status = 'rejected', reason = $2, reviewed_at = $3, hidden_at = $3, resubmitted = false, seq = $4
     WHERE id = $1 AND status = 'approved' RETURNING *`,
    [postId, reason, now, seq],
  );
  if (!row) {
    const [exists] = await tx.query('SELECT 1 FROM posts WHERE id = $1', [postId]);
    throw new Refusal(exists ? 'not_on_forum' : 'not_found');
  }
  // The post's flags and its replies' (no member sees them any more).
  await settleFlags(tx, { postId, replyId: 'all' }, 'resolved', seq);
  await writeNotifications(tx, notificationsForReview(rulesPost(row), 'postHidden', reason, user), seq, now);
  return { status: 'applied', postId, post: toWirePost(row, true, user.email) };
}

/** A member's one flag on an approved post or a visible reply of it, never on their own. */
async function flag(
  tx: Sql,
  user: UserRow,
  op: Extract<ModerationOp, { type: 'flag' }>,
  input: { reason: FlagReason; text: string },
  seq: number,
): Promise<Applied> {
  const [post] = await tx.query(`SELECT author_email FROM posts WHERE id = $1 AND status = 'approved'`, [op.postId]);
  if (!post) throw new Refusal('not_found');
  let author = post.author_email;
  if (op.replyId !== null) {
    const [reply] = await tx.query(`SELECT author_email FROM replies WHERE id = $1 AND post_id = $2 AND state = 'visible'`, [
      op.replyId,
      op.postId,
    ]);
    if (!reply) throw new Refusal('reply_not_found');
    author = reply.author_email;
  }
  if (!mayFlag({ authorEmail: String(author) }, user)) throw new Refusal('cannot_flag_own');
  // The unique index flags_once makes a second flag of the same item by the same member a no-op.
  const [row] = await tx.query(
    `INSERT INTO flags (id, user_id, post_id, reply_id, reason, text, created_at, state, seq)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8) ON CONFLICT DO NOTHING RETURNING *`,
    [op.id, user.id, op.postId, op.replyId, input.reason, input.text, Date.now(), seq],
  );
  if (!row) throw new Refusal('already_flagged');
  return { status: 'applied', postId: op.postId, flag: toWireFlag({ ...row, flagger: user.name, flagger_email: user.email }) };
}

/** Marks the caller's own unread notifications among `ids` read; anyone else's ids change nothing. */
async function readNotifications(tx: Sql, user: UserRow, ids: string[], seq: number): Promise<Applied> {
  await tx.query(
    `UPDATE notifications SET read_at = $2, seq = $3
     WHERE user_id = $1 AND read_at IS NULL AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($4::text::jsonb))`,
    [user.id, Date.now(), seq, JSON.stringify(ids)],
  );
  return { status: 'applied' };
}

async function work(tx: Sql, user: UserRow, op: ModerationOp, checked: Passed, seq: number): Promise<Applied> {
  switch (op.type) {
    case 'hidePost':
      return hidePost(tx, user, op.postId, 'reason' in checked ? checked.reason : null, seq);
    case 'flag':
      return flag(tx, user, op, (checked as { flag: { reason: FlagReason; text: string } }).flag, seq);
    case 'dismissFlags':
      await settleFlags(tx, { postId: op.postId, replyId: op.replyId }, 'dismissed', seq);
      return { status: 'applied', postId: op.postId };
    case 'readNotifications':
      return readNotifications(tx, user, op.ids, seq);
  }
}

/** Applies a moderation `op` for `user` at most once and answers applied, duplicate or refused. */
export async function applyModerationOp(db: Database, user: UserRow, op: ModerationOp): Promise<ServerOpResult> {
  const checked = precheck(user, op);
  if ('code' in checked) return refused(op, checked.code, checked.reason);
  const target = { postId: 'postId' in op ? op.postId : null, replyId: 'replyId' in op ? op.replyId : null };
  return applyOnce(db, user, op, target, (tx, seq) => work(tx, user, op, checked, seq));
}
