// The one way the server applies an operation, at most once: its definition (src/shared/ops) is
// looked up by type, its payload checked and its sender's role too, before anything is read; a
// retry is answered `duplicate` outside the write lock when it can be. Then, in one transaction, the
// change_head row is locked first (commits are totally ordered, and a retry racing its first push
// waits, then answers `duplicate`), the definition runs over the SQL store, the op id is recorded
// with what it was about, and the change number it took (if it changed anything) is announced on
// ie_changes at commit. A refusal rolls everything back. Likes are the one exception: they join a
// group commit (like-batch.ts), which tests/ops holds to the like definition; it answers their
// retries and takes their limits (and a one-like push's own) in the same statement.
import { maySee, type Actor } from '../../../src/shared/post-rules';
import { categorySeeGroups, memberGroupIds } from '../groups/categories';
import { isSilencedAt } from '../../../src/shared/moderation';
import { OpRefusal, type OpContext } from '../../../src/shared/ops/define';
import { definitionOf, type AnyDefinition } from '../../../src/shared/ops/registry';
import { runOp, silenceRefuses } from '../../../src/shared/ops/rules';
import type { Op, OpOf, ServerOpResult } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import { twoStepRequiredForStaff } from '../members/two-step';
import { withAuthors } from '../members/authors';
import { withPolls } from '../posts/poll-rows';
import { toOpPost, toWirePost } from '../posts/post-rows';
import { toWireReply } from '../replies/reply-rows';
import { toWireFlag } from '../flags/flag-rows';
import type { Database, Priority, Sql } from '../storage/adapter';
import { alreadyApplied, CHANGES_CHANNEL, duplicate, legacyCode, refused } from './answers';
import { applyLike, type LikeTake } from './like-batch';
import { logStaffAction } from '../staff/staff-log';
import {
  OverLimit,
  SlowDown,
  takeAll,
  takeAllForRequest,
  takeOf,
  tooOften,
  type LimitName,
  type Limits,
  type Take,
} from '../../lib/limits';
import { ChangeNumber, SqlStore } from './sql-store';

/** An operation's answer, and the change number it took (null: it changed nothing, or that is not known here). */
export interface Applied {
  result: ServerOpResult;
  seq: number | null;
}

/**
 * An operation over one of its limits: `failed` (it is not refused: the device keeps it) with when to
 * send it again; or refused `over_limit` when it costs more than the limit ever allows.
 */
const slowedDown = (op: Op, error: SlowDown): ServerOpResult =>
  error instanceof OverLimit
    ? refused(op, 'over_limit')
    : { id: op.id, status: 'failed', code: 'slow_down', reason: error.message, retryAfter: error.retryAfter };

/** How many of each of its limits `op` takes (its definition's cost; one by default). */
const costOf = (definition: AnyDefinition, args: unknown): number => (definition.cost ? definition.cost(args as never) : 1);

/** Thrown inside an operation's transaction when its op id turns out to be recorded already. */
class Duplicate extends Error {}

/** What an operation named as its subject (OpContext.about). */
interface About {
  postId: number | null;
  replyId: string | null;
}

/**
 * A like joins the next group commit (like-batch.ts): one ie_like_batch statement with the change_head
 * lock, which takes its limits too (`flood`, its push's own when it is the push's one operation, then
 * the like's: a like's count is as many likes, its cost). Over the push's limits: 429 (tooOften).
 */
async function like(
  db: Database,
  user: UserRow,
  op: OpOf<'like'>,
  count: number,
  limits: { rules: Limits; names: readonly LimitName[] } | undefined,
  flood: readonly Take[],
): Promise<Applied> {
  const admin = user.role === 'admin';
  const takes: LikeTake[] = flood.map((one) => ({ ...one, request: true }));
  try {
    if (limits)
      for (const name of limits.names) {
        const one = takeOf(limits.rules, name, user, count);
        if (one) takes.push(one);
      }
  } catch (error) {
    // More than the limit ever allows: refused over_limit, after the push's own limits, as before anything else.
    if (!(error instanceof OverLimit)) throw error;
    await takeAllForRequest(db, flood);
    return { result: slowedDown(op, error), seq: null };
  }
  const outcome = await applyLike(db, { id: op.id, user: user.id, post: op.postId, count, admin, email: user.email, takes });
  if (outcome.row) {
    const post = toWirePost((await withPolls(db, [outcome.row], user.email))[0]!, admin, user.email);
    return { result: { id: op.id, status: 'applied', seq: post.seq, postId: post.id, post }, seq: post.seq };
  }
  if (outcome.code === 'slow_down') {
    if (outcome.over.request) throw tooOften(outcome.slowDown);
    return { result: slowedDown(op, outcome.slowDown), seq: null };
  }
  if (outcome.code === 'duplicate') return { result: await duplicate(db, user, op.id), seq: null };
  return { result: refused(op, outcome.code === 'not_approved' ? 'not_approved' : 'not_found'), seq: null };
}

/** The row `read` of `key` as the store last saw it, or as it is now when the store never read it. */
async function current<K, R>(seen: Map<K, R | null>, key: K, read: () => Promise<R[]>): Promise<R | undefined> {
  if (seen.has(key)) return seen.get(key) ?? undefined;
  const [row] = await read();
  return row;
}

/**
 * The answer: the change number the op took (every row it wrote carries it: the device knows which
 * of its rows hold the op), what it was about (its post, as `user` may see it, and its reply), and the flag it made.
 */
async function answer(
  tx: Sql,
  store: SqlStore,
  user: Actor & UserRow,
  opId: string,
  about: About,
  seq: number | null,
): Promise<ServerOpResult> {
  const admin = user.role === 'admin';
  const result: Extract<ServerOpResult, { status: 'applied' }> = { id: opId, status: 'applied', ...(seq === null ? {} : { seq }) };
  if (about.postId === null) return result;
  result.postId = about.postId;
  const post = await current(store.posts, about.postId, () => tx.query('SELECT * FROM posts WHERE id = $1', [about.postId]));
  const seen = post && { ...toOpPost(post), seeGroups: await categorySeeGroups(tx, String(post.category)) };
  if (post && seen && maySee(seen, user)) {
    const reply = about.replyId
      ? await current(store.replies, about.replyId, () => tx.query('SELECT * FROM replies WHERE id = $1', [about.replyId]))
      : undefined;
    // Copies: the store's rows stay as the database holds them.
    const [named, namedReply] = await withAuthors(tx, [{ ...post }, ...(reply ? [{ ...reply }] : [])]);
    await withPolls(tx, [named!], user.email);
    result.post = toWirePost(named!, admin, user.email);
    if (namedReply) result.reply = toWireReply(namedReply, admin, user.email);
  }
  if (store.flagRow) result.flag = toWireFlag(store.flagRow);
  return result;
}

/**
 * Applies `op` for `user` at most once and answers applied, duplicate or refused with a reason (the
 * codes a device of `protocolVersion` understands). `flood`: its push's own limits (requestTakes),
 * taken before it, or in its group commit when it is a like; over them it throws 429 (tooOften).
 */
export async function applyOp(
  db: Database,
  user: UserRow,
  op: Op,
  protocolVersion?: number,
  limits?: Limits,
  priority?: Priority,
  flood: readonly Take[] = [],
): Promise<Applied> {
  const definition = definitionOf(op.type);
  let args: unknown;
  try {
    if (definition.who === 'admin' && user.role !== 'admin') throw new OpRefusal('admins_only');
    args = definition.parse(op as never);
  } catch (error) {
    if (!(error instanceof OpRefusal)) throw error;
    await takeAllForRequest(db, flood);
    return { result: refused(op, legacyCode(error.code, op.type, protocolVersion), error.reason), seq: null };
  }
  // The group commit runs no definition: the one rule of silence (rules.ts) is asked of the member's
  // row here (a silence past its end no longer counts: isSilencedAt). It answers duplicates itself.
  const silenced = definition.batched && silenceRefuses(definition, isSilencedAt(user, Date.now()));
  if (definition.batched && !silenced)
    return like(db, user, op as OpOf<'like'>, costOf(definition, args), limits && { rules: limits, names: definition.limits ?? [] }, flood);
  await takeAllForRequest(db, flood);
  // Most retries are caught here, outside the write lock; the check inside it is the guarantee.
  if (await alreadyApplied(db, op.id)) return { result: await duplicate(db, user, op.id), seq: null };
  if (silenced) return { result: refused(op, 'silenced'), seq: null };
  // Issue 63: while the admin requires it, a staff account without two-step verification does no staff work.
  if (definition.who === 'admin' && !user.totpEnabledAt && (await twoStepRequiredForStaff(db)))
    return { result: refused(op, 'two_step_required'), seq: null };
  return applyByDefinition(db, user, op, args, limits, priority);
}

/**
 * Applies `op` (its `args` as its definition read them) in a transaction of its own, by its
 * definition over the SQL store: every operation but a like (which joins a group commit; the tests
 * run likes through here too, to hold the group commit to the definition).
 */
export async function applyByDefinition(
  db: Database,
  user: UserRow,
  op: Op,
  args: unknown,
  limits?: Limits,
  priority?: Priority,
): Promise<Applied> {
  const definition = definitionOf(op.type);
  try {
    return await db.transaction(async (tx): Promise<Applied> => {
      const [head] = await tx.query('SELECT seq, last_post_id FROM change_head FOR UPDATE');
      if (await alreadyApplied(tx, op.id)) throw new Duplicate();
      // Its limits are taken in its own transaction: a refusal gives them back.
      if (limits) await takeAll(tx, limits, definition.limits ?? [], user, costOf(definition, args));
      const change = new ChangeNumber(Number(head!.seq) + 1);
      const store = new SqlStore(tx, user, change, Number(head!.last_post_id));
      const about: About = { postId: null, replyId: null };
      const context: OpContext = {
        id: op.id,
        now: Date.now(),
        about(postId, replyId = null) {
          about.postId = postId;
          about.replyId = replyId;
        },
      };
      // The member with the groups they are in: the one visibility rule sees private categories with them.
      const actor = { ...user, groups: await memberGroupIds(tx, user.id) };
      await runOp(definition, store, actor, args as never, context);
      await logStaffAction(tx, store, user, op, args, about);
      const seq = change.taken ? change.last : null;
      const [claimed] = await tx.query(
        'INSERT INTO ops (id, user_id, post_id, reply_id, seq) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id',
        [op.id, user.id, about.postId, about.replyId, seq],
      );
      if (!claimed) throw new Duplicate();
      if (seq !== null) {
        // The NOTIFY is delivered only after the commit; it names who may see the change (sync/audience.ts).
        await tx.query('WITH head AS (UPDATE change_head SET seq = $1 RETURNING seq) SELECT pg_notify($2, $3) FROM head', [
          change.last,
          CHANGES_CHANNEL,
          store.audience.payload(change.last),
        ]);
      }
      return { result: await answer(tx, store, actor, op.id, about, seq), seq };
    }, priority);
  } catch (error) {
    if (error instanceof Duplicate) return { result: await duplicate(db, user, op.id), seq: null };
    if (error instanceof OpRefusal) return { result: refused(op, error.code, error.reason), seq: null };
    if (error instanceof SlowDown) return { result: slowedDown(op, error), seq: null };
    throw error;
  }
}
