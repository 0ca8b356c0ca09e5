// What every operation answers besides `applied`: a refusal (the vocabulary's code and sentence) and
// a duplicate (the op id was already applied: the same post, and reply, as this member may see them
// now). Shared by the posts' operations (ops.ts) and the conversations' (reply-ops.ts).
import { ERRORS, type WireErrorCode } from '../../src/shared/errors';
import type { ServerOpResult } from '../../src/shared/protocol';
import type { Database } from './adapter';
import type { UserRow } from './accounts';
import { flagColumns, toWireFlag } from './moderation-rows';
import { toWirePost, visibleTo } from './post-rows';
import { readableReplyColumns, toWireReply } from './reply-rows';

/** The channel on which every committed change is announced (payload: its change number). */
export const CHANGES_CHANNEL = 'ie_changes';

/** Thrown inside an operation's transaction to roll it back and refuse it with `code`. */
export class Refusal extends Error {
  constructor(
    readonly code: WireErrorCode,
    readonly reason: string = ERRORS[code].message,
  ) {
    super(reason);
  }
}

/** Thrown inside an operation's transaction when its op id turns out to be recorded already. */
export class Duplicate extends Error {}

/** The answer that refuses `op` with `code` (and the vocabulary's sentence unless a precise one is given). */
export const refused = (op: { id: string }, code: WireErrorCode, reason: string = ERRORS[code].message): ServerOpResult => ({
  id: op.id,
  status: 'refused',
  code,
  reason,
});

/** True when `opId` is recorded: most retries are caught with this, outside the write lock. */
export async function alreadyApplied(db: Database, opId: string): Promise<boolean> {
  const [known] = await db.query('SELECT 1 FROM ops WHERE id = $1', [opId]);
  return known !== undefined;
}

/** What the first application of an op answered, again (only to the member who pushed it), with its post and reply as they are now. */
export async function duplicate(db: Database, user: UserRow, opId: string): Promise<ServerOpResult> {
  const [op] = await db.query('SELECT user_id, post_id, reply_id FROM ops WHERE id = $1', [opId]);
  if (!op || Number(op.user_id) !== user.id) return refused({ id: opId }, 'conflict');
  if (op.post_id === null) return { id: opId, status: 'duplicate' };
  const admin = user.role === 'admin';
  const [post] = await db.query(`SELECT * FROM posts WHERE id = $1 AND ${visibleTo('$2', '$3')}`, [op.post_id, admin, user.email]);
  const [reply] =
    post && op.reply_id !== null
      ? await db.query(`SELECT ${readableReplyColumns('r', '$2')} FROM replies r WHERE r.id = $1`, [op.reply_id, admin])
      : [];
  // A flag's id is its op's: a retried flag answers with the flag as it is now.
  const [flag] = await db.query(`SELECT ${flagColumns('f', 'u')} FROM flags f JOIN users u ON u.id = f.user_id WHERE f.id = $1`, [opId]);
  return {
    id: opId,
    status: 'duplicate',
    postId: Number(op.post_id),
    ...(post ? { post: toWirePost(post, admin, user.email) } : {}),
    ...(reply ? { reply: toWireReply(reply, admin) } : {}),
    ...(flag ? { flag: toWireFlag(flag) } : {}),
  };
}
