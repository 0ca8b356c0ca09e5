// What every operation answers besides `applied`: a refusal (the vocabulary's code and sentence) and
// a duplicate (the op id was already applied: the same post, and reply, as this member may see them
// now). Shared by the posts' operations (ops.ts) and the conversations' (reply-ops.ts).
import { ERRORS, type WireErrorCode } from '../../src/shared/errors';
import type { ServerOpResult } from '../../src/shared/protocol';
import type { Database, Sql } from './adapter';
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

/** An answer before its op id is added (each kind of answer keeps its own fields). */
export type OpAnswer = ServerOpResult extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** Where an op's duplicate answer looks: the post (and reply) it touched. */
export interface OpTarget {
  postId: number | null;
  replyId?: string | null;
}

/**
 * Applies `op` for `user` at most once and answers applied, duplicate or refused. A retry is
 * answered `duplicate` outside the write lock when it can be; then, in one transaction, the
 * change_head row is locked and one change number taken first, the op id claimed (a retry racing
 * its first push answers `duplicate`) with the NOTIFY delivered at commit, and `work` writes every
 * row at that number. A Refusal thrown by `work` rolls everything back and refuses the op.
 */
export async function applyOnce(
  db: Database,
  user: UserRow,
  op: { id: string },
  target: OpTarget,
  work: (tx: Sql, seq: number) => Promise<OpAnswer>,
): Promise<ServerOpResult> {
  if (await alreadyApplied(db, op.id)) return duplicate(db, user, op.id);
  try {
    return await db.transaction(async (tx): Promise<ServerOpResult> => {
      const [head] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
      const seq = Number(head!.seq);
      const [claimed] = await tx.query(
        `WITH claimed AS (INSERT INTO ops (id, user_id, post_id, reply_id) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id)
         SELECT id, pg_notify($5, $6) FROM claimed`,
        [op.id, user.id, target.postId, target.replyId ?? null, CHANGES_CHANNEL, String(seq)],
      );
      if (!claimed) throw new Duplicate();
      return { id: op.id, ...(await work(tx, seq)) } as ServerOpResult;
    });
  } catch (error) {
    if (error instanceof Duplicate) return duplicate(db, user, op.id);
    if (error instanceof Refusal) return refused(op, error.code, error.reason);
    throw error;
  }
}
