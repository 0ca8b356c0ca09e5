// Writing (protocol version 3): an author's edit of their post, and the deletion of a post by its
// author or an admin. Both run inside the transaction ops.ts opens for a post's operation (the
// change_head row lock taken first, the op id recorded with the effect), under its change number.
// The edit follows the one rule the device follows too (editedPost); a deleted post moves to
// deleted_posts, which no member's pull reads beyond its id.
import { editedPost, mayDeletePost, mayEditPost } from '../../src/shared/post-rules';
import type { NewPost, Op } from '../../src/shared/protocol';
import type { UserRow } from './accounts';
import type { Sql } from './adapter';
import { settleFlags } from './moderation-rows';
import { Refusal } from './op-results';
import { findVisiblePost, previousParam, toWirePost, type PostRow } from './post-rows';

/** The post `user` may see (else `not_found`), as the wire shape with every field (the rules read it). */
async function postFor(tx: Sql, user: UserRow, postId: number) {
  const row = await findVisiblePost(tx, user, postId);
  if (!row) throw new Refusal('not_found');
  return toWirePost(row, true);
}

/**
 * Applies the author's edit at change number `seq`: only the author (`not_your_post`, admins
 * included), only from the status they edited (`edit_conflict` when a review came in between).
 */
export async function editPost(
  tx: Sql,
  user: UserRow,
  op: Extract<Op, { type: 'editPost' }>,
  fields: NewPost,
  seq: number,
): Promise<PostRow> {
  const post = await postFor(tx, user, op.postId);
  if (!mayEditPost(post, user)) throw new Refusal('not_your_post');
  if (post.status !== op.base) throw new Refusal('edit_conflict');
  const now = Date.now();
  const edited = editedPost(post, fields, now);
  // A rejected post the edit resubmits enters the review queue again, its old reason gone.
  const resubmits = post.status === 'rejected';
  const [row] = await tx.query(
    `UPDATE posts SET title = $2, content = $3, category = $4, tags = $5::jsonb, status = $6, edited_at = $7,
       resubmitted = $8, previous = $9::jsonb, seq = $10,
       submitted_at = CASE WHEN $11::boolean THEN $12::bigint ELSE submitted_at END,
       reason = CASE WHEN $11::boolean THEN NULL ELSE reason END
     WHERE id = $1 RETURNING *`,
    [
      post.id,
      edited.title,
      edited.content,
      edited.category,
      JSON.stringify(edited.tags),
      edited.status,
      edited.editedAt,
      edited.resubmitted,
      previousParam(edited.previous),
      seq,
      resubmits,
      now,
    ],
  );
  return row!;
}

/**
 * Deletes the post at change number `seq` (its author or an admin, else `not_your_post`): the row
 * moves to deleted_posts with when and by whom, and `seq` is the deletion's number (a version-3
 * pull sends its id as removed). Its replies stay in their table, out of every pull (they join posts);
 * the open flags of the post and of its replies are resolved at `seq`.
 */
export async function deletePost(tx: Sql, user: UserRow, postId: number, seq: number): Promise<void> {
  const post = await postFor(tx, user, postId);
  if (!mayDeletePost(post, user)) throw new Refusal('not_your_post');
  // Through jsonb, column by name: every column of posts lands in its namesake, whatever their order.
  await tx.query(
    `WITH gone AS (DELETE FROM posts WHERE id = $1 RETURNING *)
     INSERT INTO deleted_posts
     SELECT (jsonb_populate_record(NULL::deleted_posts,
       to_jsonb(gone) || jsonb_build_object('seq', $2::bigint, 'deleted_at', $3::bigint, 'deleted_by', $4::bigint))).*
     FROM gone`,
    [postId, seq, Date.now(), user.id],
  );
  // The post's flags and its replies' are settled: there is nothing left to look at.
  await settleFlags(tx, { postId, replyId: 'all' }, 'resolved', seq);
}
