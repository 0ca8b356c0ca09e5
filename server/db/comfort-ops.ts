// Comfort (protocol version 5): save (a member saves or unsaves a post), setTheme and rename (what
// follows the member to every device). Each is one transaction in the pattern of ops.ts: the
// change_head row locked and one change number taken first, the op id claimed (a retry racing its
// first push answers `duplicate`) with the NOTIFY delivered at commit, and every row the op writes
// given that one number. A refusal rolls everything back.
import type { WireErrorCode } from '../../src/shared/errors';
import { displayNameSchema, type ComfortOp, type Op, type ServerOpResult } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import type { Database, Sql } from './adapter';
import type { UserRow } from './accounts';
import { applyOnce, Refusal, refused } from './op-results';
import { visibleTo } from './post-rows';

const COMFORT_TYPES = ['save', 'setTheme', 'rename'] as const;

/** True for the operations this file applies. */
export const isComfortOp = (op: Op): op is ComfortOp => (COMFORT_TYPES as readonly string[]).includes(op.type);

type Checked = { code: WireErrorCode; reason?: string } | { name: string | null };

/**
 * A rename's name, trimmed, or the refusal `invalid` with validateName's sentence (what is not
 * text is read as empty, so the sentence says why).
 */
function precheck(op: ComfortOp): Checked {
  if (op.type !== 'rename') return { name: null };
  const parsed = displayNameSchema.safeParse(typeof op.name === 'string' ? op.name : '');
  return parsed.success ? { name: parsed.data } : { code: 'invalid', reason: describeZodError(parsed.error) };
}

/**
 * Saves (or unsaves) `postId` for the member at change number `seq`, its time now. Saving needs an
 * approved post the member can see: a post they cannot see, or none, is `not_found`; their own or
 * (admins) anyone's pending or rejected post is `not_saveable`. Unsaving needs only a row to undo
 * or a post they can see: a saved post that left the forum since can always be unsaved.
 */
async function save(tx: Sql, user: UserRow, op: Extract<ComfortOp, { type: 'save' }>, seq: number): Promise<void> {
  const [post] = await tx.query(`SELECT status FROM posts WHERE id = $1 AND ${visibleTo('$2', '$3')}`, [
    op.postId,
    user.role === 'admin',
    user.email,
  ]);
  if (op.saved) {
    if (!post) throw new Refusal('not_found');
    if (post.status !== 'approved') throw new Refusal('not_saveable');
  } else if (!post) {
    const [held] = await tx.query('SELECT 1 FROM saved_posts WHERE user_id = $1 AND post_id = $2', [user.id, op.postId]);
    if (!held) throw new Refusal('not_found');
  }
  await tx.query(
    `INSERT INTO saved_posts (user_id, post_id, saved, at, seq) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, post_id) DO UPDATE SET saved = EXCLUDED.saved, at = EXCLUDED.at, seq = EXCLUDED.seq`,
    [user.id, op.postId, op.saved, Date.now(), seq],
  );
}

/**
 * The member's new display name at change number `seq`: on their account (the session's answer
 * reads it), and as the author of each of their posts and replies whose name differs, each given
 * `seq` so every device (of any protocol version) pulls the new name. Their flags take `seq` too
 * (an admin's device shows the flagger's name). A deleted post keeps its number (its row is never
 * pulled again) but takes the name.
 */
async function rename(tx: Sql, user: UserRow, name: string, seq: number): Promise<void> {
  await tx.query('UPDATE users SET name = $2, prefs_seq = $3 WHERE id = $1', [user.id, name, seq]);
  await tx.query('UPDATE posts SET author = $2, seq = $3 WHERE author_email = $1 AND author <> $2', [user.email, name, seq]);
  await tx.query('UPDATE replies SET author = $2, seq = $3 WHERE author_email = $1 AND author <> $2', [user.email, name, seq]);
  await tx.query('UPDATE deleted_posts SET author = $2 WHERE author_email = $1 AND author <> $2', [user.email, name]);
  await tx.query('UPDATE flags SET seq = $2 WHERE user_id = $1', [user.id, seq]);
}

async function work(tx: Sql, user: UserRow, op: ComfortOp, name: string | null, seq: number): Promise<void> {
  switch (op.type) {
    case 'save':
      return save(tx, user, op, seq);
    case 'setTheme':
      await tx.query('UPDATE users SET theme = $2, prefs_seq = $3 WHERE id = $1', [user.id, op.theme, seq]);
      return;
    case 'rename':
      return rename(tx, user, name!, seq);
  }
}

/** Applies a comfort `op` for `user` at most once and answers applied, duplicate or refused. */
export async function applyComfortOp(db: Database, user: UserRow, op: ComfortOp): Promise<ServerOpResult> {
  const checked = precheck(op);
  if ('code' in checked) return refused(op, checked.code, checked.reason);
  const postId = op.type === 'save' ? op.postId : null;
  return applyOnce(db, user, op, { postId }, async (tx, seq) => {
    await work(tx, user, op, checked.name, seq);
    return { status: 'applied', ...(postId === null ? {} : { postId }) };
  });
}
