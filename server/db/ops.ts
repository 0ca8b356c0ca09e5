// Applying pushed operations at most once (the op id is recorded in the same transaction as its
// effect): a create, a review, an edit or a deletion of a post in a transaction of its own (edits
// and deletions in post-edit-ops.ts), likes in a group commit shared with other pushes
// (like-batch.ts), the conversations' operations in reply-ops.ts, moderation's in moderation-ops.ts,
// comfort's (save, setTheme, rename) in comfort-ops.ts. Author, role, likes, status and
// dates are set here, never by the client. Every transaction takes the change_head row lock first:
// commits are totally ordered.
import { notificationsForReview } from '../../src/shared/moderation';
import { pendingPost } from '../../src/shared/post-rules';
import { newPostSchema, type ComfortOp, type ModerationOp, type NewPost, type Op, type ServerOpResult } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import type { Database, Sql } from './adapter';
import { currentAuthor, type UserRow } from './accounts';
import { applyComfortOp, isComfortOp } from './comfort-ops';
import { applyLike } from './like-batch';
import { applyModerationOp, checkReason, isModerationOp } from './moderation-ops';
import { rulesPost, writeNotifications } from './moderation-rows';
import { alreadyApplied, CHANGES_CHANNEL, Duplicate, duplicate, Refusal, refused } from './op-results';
import { deletePost, editPost } from './post-edit-ops';
import { INSERT_POST, insertParams, toWirePost, type PostRow } from './post-rows';
import { applyConversationOp, isConversationOp, type ConversationOp } from './reply-ops';

/** The operations on a post that run in a transaction of their own here. */
type PostWriteOp = Exclude<Op, ConversationOp | ModerationOp | ComfortOp | { type: 'like' }>;

async function create(tx: Sql, user: UserRow, post: NewPost, seq: number, lastId: number): Promise<PostRow> {
  const now = Date.now();
  const id = Math.max(lastId + 1, now);
  await tx.query('UPDATE change_head SET last_post_id = $1', [id]);
  await tx.query(INSERT_POST, insertParams(pendingPost(id, await currentAuthor(tx, user), post), seq));
  // It enters the review queue now (INSERT_POST stays the statement of every schema version).
  const [row] = await tx.query('UPDATE posts SET submitted_at = $2 WHERE id = $1 RETURNING *', [id, now]);
  return row!;
}

/** A like joins the next group commit (like-batch.ts); each is one ie_like with the change_head lock. */
async function like(db: Database, user: UserRow, op: Extract<Op, { type: 'like' }>): Promise<ServerOpResult> {
  const outcome = await applyLike(db, {
    id: op.id,
    user: user.id,
    post: op.postId,
    count: op.count ?? 1,
    admin: user.role === 'admin',
    email: user.email,
  });
  if (outcome.row) {
    const post = toWirePost(outcome.row, user.role === 'admin', user.email);
    return { id: op.id, status: 'applied', postId: post.id, post };
  }
  if (outcome.code === 'duplicate') return duplicate(db, user, op.id);
  return refused(op, outcome.code === 'not_approved' ? 'not_approved' : 'not_found');
}

/**
 * A review at change number `seq`: a rejection keeps its reason (null when none), an approval
 * clears it; the author hears of it (a notification at the same number).
 */
async function review(
  tx: Sql,
  user: UserRow,
  postId: number,
  status: 'approved' | 'rejected',
  reason: string | null,
  seq: number,
): Promise<PostRow> {
  const now = Date.now();
  // A review ends a resubmitted post's mark in the queue.
  const [row] = await tx.query(
    `UPDATE posts SET status = $2, seq = $3, resubmitted = false, reason = $4, reviewed_at = $5
     WHERE id = $1 AND status = 'pending' RETURNING *`,
    [postId, status, seq, status === 'rejected' ? reason : null, now],
  );
  if (row) {
    await writeNotifications(tx, notificationsForReview(rulesPost(row), status, reason, user), seq, now);
    return row;
  }
  const [exists] = await tx.query('SELECT 1 FROM posts WHERE id = $1', [postId]);
  throw new Refusal(exists ? 'already_reviewed' : 'not_found');
}

/** The effect of `op` at change number `seq`: the post as it is now, or null when the op deleted it. */
async function work(
  tx: Sql,
  user: UserRow,
  op: PostWriteOp,
  fields: NewPost | undefined,
  reason: string | null,
  seq: number,
  lastId: number,
): Promise<PostRow | null> {
  switch (op.type) {
    case 'create':
      return create(tx, user, fields!, seq, lastId);
    case 'approve':
    case 'reject':
      return review(tx, user, op.postId, op.type === 'approve' ? 'approved' : 'rejected', reason, seq);
    case 'editPost':
      return editPost(tx, user, op, fields!, seq);
    case 'deletePost':
      await deletePost(tx, user, op.postId, seq);
      return null;
  }
}

/** Applies `op` for `user` at most once and answers applied, duplicate or refused with a reason. */
export async function applyOp(db: Database, user: UserRow, op: Op): Promise<ServerOpResult> {
  if (isConversationOp(op)) return applyConversationOp(db, user, op);
  if (isModerationOp(op)) return applyModerationOp(db, user, op);
  if (isComfortOp(op)) return applyComfortOp(db, user, op);
  if ((op.type === 'approve' || op.type === 'reject') && user.role !== 'admin') return refused(op, 'forbidden');
  let reason: string | null = null;
  if (op.type === 'reject') {
    const checked = checkReason(op.reason);
    if ('code' in checked) return refused(op, checked.code, checked.reason);
    reason = checked.reason;
  }
  // A create's or an edit's text is checked before anything is looked up, with the rule's sentence.
  let fields: NewPost | undefined;
  if (op.type === 'create' || op.type === 'editPost') {
    const parsed = newPostSchema.safeParse(op.post);
    if (!parsed.success) return refused(op, 'invalid', describeZodError(parsed.error));
    fields = parsed.data;
  }
  // Most retries are caught here, outside the write lock; the check inside it is the guarantee.
  if (await alreadyApplied(db, op.id)) return duplicate(db, user, op.id);
  if (op.type === 'like') return like(db, user, op);
  try {
    return await db.transaction(async (tx): Promise<ServerOpResult> => {
      const [head] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq, last_post_id');
      const seq = Number(head!.seq);
      const row = await work(tx, user, op, fields, reason, seq, Number(head!.last_post_id));
      const postId = op.type === 'create' ? Number(row!.id) : op.postId;
      // Record the op id and announce the change (NOTIFY is delivered only after the commit).
      const [claimed] = await tx.query(
        `WITH claimed AS (INSERT INTO ops (id, user_id, post_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id)
         SELECT id, pg_notify($4, $5) FROM claimed`,
        [op.id, user.id, postId, CHANGES_CHANNEL, String(seq)],
      );
      if (!claimed) throw new Duplicate();
      // A deleted post has no state left to send: its id is the answer.
      if (!row) return { id: op.id, status: 'applied', postId };
      const post = toWirePost(row, user.role === 'admin', user.email);
      return { id: op.id, status: 'applied', postId: post.id, post };
    });
  } catch (error) {
    if (error instanceof Duplicate) return duplicate(db, user, op.id);
    if (error instanceof Refusal) return refused(op, error.code, error.reason);
    throw error;
  }
}
