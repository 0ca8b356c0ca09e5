// Applying pushed operations: each one in its own transaction, at most once (its id is recorded in
// the same transaction as its effect), with author, role, likes, status and dates set here, never
// by the client. Every transaction takes the change_head row lock first: commits are totally ordered.
import { newPostSchema, type NewPost, type Op, type OpResult } from '../../src/shared/protocol';
import { validateNewPost } from '../../src/db/core/validation'; // eslint-disable-line import-x/no-restricted-paths -- moved to src/shared by the vocabulary change
import type { Database, Sql } from './adapter';
import type { UserRow } from './accounts';
import { applyLike } from './like-batch';
import { INSERT_POST, insertParams, toWirePost, visibleTo, type PostRow } from './post-rows';

/** The channel on which every committed change is announced (payload: its change number). */
export const CHANGES_CHANNEL = 'ie_changes';

class Refusal extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}
class Duplicate extends Error {}

const NOT_FOUND = () => new Refusal('not_found', 'This post no longer exists.');

async function create(tx: Sql, user: UserRow, post: NewPost, seq: number, lastId: number): Promise<PostRow> {
  const id = Math.max(lastId + 1, Date.now());
  await tx.query('UPDATE change_head SET last_post_id = $1', [id]);
  const params = insertParams(
    {
      id,
      title: post.title,
      content: post.content,
      category: post.category,
      tags: post.tags ?? [],
      author: user.name,
      authorEmail: user.email,
      authorRole: user.role,
      likes: 0,
      comments: 0,
      views: 0,
      date: 'Just now',
      isTopContributor: false,
      status: 'pending',
    },
    seq,
  );
  const [row] = await tx.query(INSERT_POST, params);
  return row!;
}

/** A like joins the next group commit (like-batch.ts); each is one ie_like with the change_head lock. */
async function like(db: Database, user: UserRow, op: Extract<Op, { type: 'like' }>): Promise<OpResult> {
  const outcome = await applyLike(db, {
    id: op.id,
    user: user.id,
    post: op.postId,
    count: op.count ?? 1,
    admin: user.role === 'admin',
    email: user.email,
  });
  if (outcome.row) {
    const post = toWirePost(outcome.row);
    return { id: op.id, status: 'applied', postId: post.id, post };
  }
  const code = outcome.code;
  if (code === 'duplicate') return duplicate(db, user, op.id);
  if (code === 'not_approved') return { id: op.id, status: 'refused', code, reason: 'Only approved posts can be liked.' };
  return { id: op.id, status: 'refused', code: 'not_found', reason: NOT_FOUND().reason };
}

async function review(tx: Sql, postId: number, status: 'approved' | 'rejected', seq: number): Promise<PostRow> {
  const [row] = await tx.query(`UPDATE posts SET status = $2, seq = $3 WHERE id = $1 AND status = 'pending' RETURNING *`, [
    postId,
    status,
    seq,
  ]);
  if (row) return row;
  const [exists] = await tx.query('SELECT 1 FROM posts WHERE id = $1', [postId]);
  throw exists ? new Refusal('already_reviewed', 'This post was already reviewed') : NOT_FOUND();
}

/** What the first application of an op answered, again (only to the member who pushed it). */
async function duplicate(db: Database, user: UserRow, opId: string): Promise<OpResult> {
  const [op] = await db.query('SELECT user_id, post_id FROM ops WHERE id = $1', [opId]);
  if (!op || Number(op.user_id) !== user.id) {
    return { id: opId, status: 'refused', code: 'conflict', reason: 'This operation id was already used by another account.' };
  }
  if (op.post_id === null) return { id: opId, status: 'duplicate' };
  const [row] = await db.query(`SELECT * FROM posts WHERE id = $1 AND ${visibleTo('$2', '$3')}`, [
    op.post_id,
    user.role === 'admin',
    user.email,
  ]);
  return { id: opId, status: 'duplicate', postId: Number(op.post_id), ...(row ? { post: toWirePost(row) } : {}) };
}

/** Applies `op` for `user` at most once and answers applied, duplicate or refused with a reason. */
export async function applyOp(db: Database, user: UserRow, op: Op): Promise<OpResult> {
  if ((op.type === 'approve' || op.type === 'reject') && user.role !== 'admin') {
    return { id: op.id, status: 'refused', code: 'forbidden', reason: 'Only admins can review posts.' };
  }
  let newPost: NewPost | undefined;
  if (op.type === 'create') {
    const parsed = newPostSchema.safeParse(op.post);
    if (!parsed.success)
      return { id: op.id, status: 'refused', code: 'invalid', reason: describeInvalidPost(op.post, parsed.error.issues) };
    newPost = parsed.data;
  }
  // Most retries are caught here, outside the write lock; the check inside it is the guarantee.
  const [known] = await db.query('SELECT 1 FROM ops WHERE id = $1', [op.id]);
  if (known) return duplicate(db, user, op.id);
  if (op.type === 'like') return like(db, user, op);
  try {
    return await db.transaction(async (tx) => {
      const [head] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq, last_post_id');
      const seq = Number(head!.seq);
      let row: PostRow;
      if (op.type === 'create') row = await create(tx, user, newPost!, seq, Number(head!.last_post_id));
      else row = await review(tx, op.postId, op.type === 'approve' ? 'approved' : 'rejected', seq);
      // Record the op id and announce the change (NOTIFY is delivered only after the commit).
      const [claimed] = await tx.query(
        `WITH claimed AS (INSERT INTO ops (id, user_id, post_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id)
         SELECT id, pg_notify($4, $5) FROM claimed`,
        [op.id, user.id, row.id, CHANGES_CHANNEL, String(seq)],
      );
      if (!claimed) throw new Duplicate();
      const post = toWirePost(row);
      return { id: op.id, status: 'applied', postId: post.id, post };
    });
  } catch (error) {
    if (error instanceof Duplicate) return duplicate(db, user, op.id);
    if (error instanceof Refusal) return { id: op.id, status: 'refused', code: error.code, reason: error.reason };
    throw error;
  }
}

/** The app's own message (src/db/core/validation.ts) for a post that breaks the form's rules. */
function describeInvalidPost(post: Record<string, unknown>, issues: readonly { path: readonly PropertyKey[] }[]): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const problem = validateNewPost(text(post.title), text(post.content));
  if (problem) return problem.message;
  const field = String(issues[0]?.path[0] ?? '');
  if (field === 'category') return 'Please choose one of the six categories.';
  if (field === 'tags') return 'Tags: at most 10, each at most 40 characters.';
  return 'This post is not valid.';
}
