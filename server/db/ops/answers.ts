// What an operation answers besides `applied`: a refusal (the vocabulary's code and sentence, in
// the codes the device's protocol version understands) and a duplicate (the op id was already
// applied: the same post, reply and flag, as this member may see them now).
import { postVisibleSql, sqlViewer } from '../../../src/shared/visibility';
import { ERRORS, type WireErrorCode } from '../../../src/shared/errors';
import { definitionOf, type OpType } from '../../../src/shared/ops/registry';
import type { ServerOpResult } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import { withAuthors } from '../members/authors';
import { withPolls } from '../posts/poll-rows';
import { flagColumns, toWireFlag } from '../flags/flag-rows';
import { toWirePost } from '../posts/post-rows';
import { readableReplyColumns, toWireReply } from '../replies/reply-rows';
import type { Sql } from '../storage/adapter';

/** The channel on which every committed change is announced (payload: its change number). */
export const CHANGES_CHANNEL = 'ie_changes';

/** The answer that refuses `op` with `code` (and the vocabulary's sentence unless a precise one is given). */
export const refused = (op: { id: string }, code: WireErrorCode, reason: string = ERRORS[code].message): ServerOpResult => ({
  id: op.id,
  status: 'refused',
  code,
  reason,
});

/**
 * The code a device of `protocolVersion` understands for `code`, as the operation's definition
 * declares (`legacyCodes`): before version 4 (which brought `admins_only`) a member's review was
 * refused `forbidden`, and a member's hide or restore of a reply `moderators_only`. Those codes keep
 * their meaning for those devices only.
 */
export function legacyCode(code: WireErrorCode, type: OpType, protocolVersion = Infinity): WireErrorCode {
  const legacy = definitionOf(type).legacyCodes?.find((one) => one.code === code && protocolVersion < one.before);
  return legacy?.as ?? code;
}

/** True when `opId` is recorded: most retries are caught with this, outside the write lock. */
export async function alreadyApplied(sql: Sql, opId: string): Promise<boolean> {
  const [known] = await sql.query('SELECT 1 FROM ops WHERE id = $1', [opId]);
  return known !== undefined;
}

/** What the first application of an op answered, again (only to the member who pushed it), with its post, reply and flag as they are now. */
export async function duplicate(sql: Sql, user: UserRow, opId: string): Promise<ServerOpResult> {
  const [op] = await sql.query('SELECT user_id, post_id, reply_id, seq FROM ops WHERE id = $1', [opId]);
  if (!op || Number(op.user_id) !== user.id) return refused({ id: opId }, 'conflict');
  // The change it took (ops recorded before migration 9, or that changed nothing, have none).
  const seq = op.seq === null || op.seq === undefined ? {} : { seq: Number(op.seq) };
  if (op.post_id === null) return { id: opId, status: 'duplicate', ...seq };
  const admin = user.role === 'admin';
  const [post] = await sql.query(`SELECT * FROM posts WHERE id = $1 AND ${postVisibleSql(sqlViewer('$2', '$3'))}`, [
    op.post_id,
    admin,
    user.email,
  ]);
  const [reply] =
    post && op.reply_id !== null
      ? await sql.query(`SELECT ${readableReplyColumns('r', '$2')} FROM replies r WHERE r.id = $1`, [op.reply_id, admin])
      : [];
  await withAuthors(sql, [...(post ? [post] : []), ...(reply ? [reply] : [])]);
  if (post) await withPolls(sql, [post], user.email);
  // A flag's id is its op's: a retried flag answers with the flag as it is now.
  const [flag] = await sql.query(`SELECT ${flagColumns('f', 'u')} FROM flags f JOIN users u ON u.id = f.user_id WHERE f.id = $1`, [opId]);
  return {
    id: opId,
    status: 'duplicate',
    ...seq,
    postId: Number(op.post_id),
    ...(post ? { post: toWirePost(post, admin, user.email) } : {}),
    ...(reply ? { reply: toWireReply(reply, admin, user.email) } : {}),
    ...(flag ? { flag: toWireFlag(flag) } : {}),
  };
}
