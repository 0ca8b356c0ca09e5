// The conversations' operations (protocol version 2): reply, editReply, deleteReply (its author's,
// or any by an admin), hideReply, restoreReply and view. Each is one transaction that locks the
// change_head row first (commits stay ordered), records its op id before anything else (a retry
// racing its first push answers `duplicate`), and gives what it changes (the reply, its post) one
// new change number, announced on ie_changes. An op that changes nothing (hiding a hidden reply, a
// member's second view) is still recorded, but takes no number and announces nothing. A refusal
// rolls everything back.
import type { WireErrorCode } from '../../src/shared/errors';
import { notificationsForHiddenReply, notificationsForReply } from '../../src/shared/moderation';
import { mayDeleteReply, newReply, type ReplyState } from '../../src/shared/post-rules';
import { replyContentSchema, type Op, type ServerOpResult } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import type { Database, Sql } from './adapter';
import { currentAuthor, type UserRow } from './accounts';
import { rulesPost, settleFlags, writeNotifications } from './moderation-rows';
import { alreadyApplied, CHANGES_CHANNEL, Duplicate, duplicate, Refusal, refused } from './op-results';
import { findVisiblePost, toWirePost, visibleTo, type PostRow } from './post-rows';
import { INSERT_REPLY, insertReplyParams, toWireReply, type ReplyRow } from './reply-rows';

const CONVERSATION_TYPES = ['reply', 'editReply', 'deleteReply', 'hideReply', 'restoreReply', 'view'] as const;
export type ConversationOp = Extract<Op, { type: (typeof CONVERSATION_TYPES)[number] }>;

/** True for the operations this file applies. */
export const isConversationOp = (op: Op): op is ConversationOp => (CONVERSATION_TYPES as readonly string[]).includes(op.type);

/** The next change number, taken only by an op that changes something. */
class ChangeNumber {
  taken = false;
  constructor(readonly seq: number) {}
  take(): number {
    this.taken = true;
    return this.seq;
  }
}

/** What an op's work answers with: the post, and the reply the op was about. */
interface Outcome {
  post: PostRow;
  reply?: ReplyRow;
}

/** A post `user` may see (else `not_found`). */
async function visiblePost(tx: Sql, user: UserRow, postId: number): Promise<PostRow> {
  const post = await findVisiblePost(tx, user, postId);
  if (!post) throw new Refusal('not_found');
  return post;
}

/** A reply that is not deleted, on a post `user` may see (else `reply_not_found`). */
async function visibleReply(tx: Sql, user: UserRow, replyId: string): Promise<ReplyRow> {
  const [reply] = await tx.query(
    `SELECT r.* FROM replies r JOIN posts p ON p.id = r.post_id
     WHERE r.id = $1 AND r.state <> 'deleted' AND ${visibleTo('$2', '$3', 'p')}`,
    [replyId, user.role === 'admin', user.email],
  );
  if (!reply) throw new Refusal('reply_not_found');
  return reply;
}

/** A reply `user` wrote (else `reply_not_found` or `not_your_reply`: an admin is the author of their own replies only). */
async function ownReply(tx: Sql, user: UserRow, replyId: string): Promise<ReplyRow> {
  const reply = await visibleReply(tx, user, replyId);
  if (reply.author_email !== user.email) throw new Refusal('not_your_reply');
  return reply;
}

async function postOf(tx: Sql, postId: unknown): Promise<PostRow> {
  const [post] = await tx.query('SELECT * FROM posts WHERE id = $1', [postId]);
  return post!;
}

/**
 * Sets the post's `comments` to the number of its visible replies, giving it change number `seq`
 * when the number changed; returns the post.
 */
async function recount(tx: Sql, postId: unknown, seq: number): Promise<PostRow> {
  const [changed] = await tx.query(
    `WITH counted AS (SELECT count(*)::int AS n FROM replies WHERE post_id = $1 AND state = 'visible')
     UPDATE posts p SET comments = counted.n, seq = $2 FROM counted WHERE p.id = $1 AND p.comments <> counted.n RETURNING p.*`,
    [postId, seq],
  );
  return changed ?? postOf(tx, postId);
}

async function addReply(
  tx: Sql,
  user: UserRow,
  op: Extract<Op, { type: 'reply' }>,
  content: string,
  change: ChangeNumber,
): Promise<Outcome> {
  const post = await visiblePost(tx, user, op.postId);
  if (post.status !== 'approved') throw new Refusal('replies_closed');
  // A quote of a reply that is gone, or of another post's, is dropped rather than refused.
  const [quoted] = op.quoteId
    ? await tx.query(`SELECT id, author_email, state FROM replies WHERE id = $1 AND post_id = $2 AND state <> 'deleted'`, [
        op.quoteId,
        op.postId,
      ])
    : [];
  const seq = change.take();
  const now = Date.now();
  const row = newReply(op.id, op.postId, await currentAuthor(tx, user), content, quoted ? op.quoteId! : null, now);
  const [reply] = await tx.query(INSERT_REPLY, insertReplyParams(row, seq));
  // A reply of this id without its op: a sample reply's id, which only a forged op can carry.
  if (!reply) throw new Refusal('conflict');
  const quotedReply = quoted ? { authorEmail: String(quoted.author_email), state: quoted.state as ReplyState } : null;
  await writeNotifications(tx, notificationsForReply(rulesPost(post), row, quotedReply, user), seq, now);
  return { post: await recount(tx, op.postId, seq), reply };
}

async function editReply(tx: Sql, user: UserRow, replyId: string, content: string, change: ChangeNumber): Promise<Outcome> {
  const reply = await ownReply(tx, user, replyId);
  if (reply.state === 'hidden') throw new Refusal('reply_hidden');
  const [edited] = await tx.query('UPDATE replies SET content = $2, edited_at = $3, seq = $4 WHERE id = $1 RETURNING *', [
    replyId,
    content,
    Date.now(),
    change.take(),
  ]);
  return { post: await postOf(tx, reply.post_id), reply: edited! };
}

/** Its author, or an admin (a moderator removes a reply for good; hiding keeps it restorable). */
async function deleteReply(tx: Sql, user: UserRow, replyId: string, change: ChangeNumber): Promise<Outcome> {
  const reply = await visibleReply(tx, user, replyId);
  if (!mayDeleteReply({ authorEmail: String(reply.author_email) }, user)) throw new Refusal('not_your_reply');
  const seq = change.take();
  // The text is erased, not kept: a deleted reply is only a place in the conversation.
  const [deleted] = await tx.query(`UPDATE replies SET state = 'deleted', content = '', seq = $2 WHERE id = $1 RETURNING *`, [
    replyId,
    seq,
  ]);
  await settleFlags(tx, { postId: String(reply.post_id), replyId }, 'resolved', seq);
  return { post: await recount(tx, reply.post_id, seq), reply: deleted! };
}

/** Hide (visible → hidden) or restore (hidden → visible); a reply already in the wanted state is left as it is. */
async function moderate(tx: Sql, user: UserRow, replyId: string, hide: boolean, change: ChangeNumber): Promise<Outcome> {
  const reply = await visibleReply(tx, user, replyId);
  const [from, to] = hide ? ['visible', 'hidden'] : ['hidden', 'visible'];
  if (reply.state !== from) return { post: await postOf(tx, reply.post_id), reply };
  const seq = change.take();
  const [moderated] = await tx.query('UPDATE replies SET state = $2, seq = $3 WHERE id = $1 RETURNING *', [replyId, to, seq]);
  const post = await recount(tx, reply.post_id, seq);
  if (hide) {
    // Hiding settles the reply's flags, and its author hears of it.
    await settleFlags(tx, { postId: String(reply.post_id), replyId }, 'resolved', seq);
    const hidden = { id: replyId, authorEmail: String(reply.author_email) };
    await writeNotifications(tx, notificationsForHiddenReply(rulesPost(post), hidden, user), seq);
  }
  return { post, reply: moderated! };
}

/** A member's first view of a post counts (post_views keeps one row per member and post); later ones change nothing. */
async function view(tx: Sql, user: UserRow, postId: number, change: ChangeNumber): Promise<Outcome> {
  const post = await visiblePost(tx, user, postId);
  const [first] = await tx.query('INSERT INTO post_views (user_id, post_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING post_id', [
    user.id,
    postId,
  ]);
  if (!first) return { post };
  const [viewed] = await tx.query('UPDATE posts SET views = views + 1, seq = $2 WHERE id = $1 RETURNING *', [postId, change.take()]);
  return { post: viewed! };
}

function work(tx: Sql, user: UserRow, op: ConversationOp, content: string, change: ChangeNumber): Promise<Outcome> {
  switch (op.type) {
    case 'reply':
      return addReply(tx, user, op, content, change);
    case 'editReply':
      return editReply(tx, user, op.replyId, content, change);
    case 'deleteReply':
      return deleteReply(tx, user, op.replyId, change);
    case 'hideReply':
    case 'restoreReply':
      return moderate(tx, user, op.replyId, op.type === 'hideReply', change);
    case 'view':
      return view(tx, user, op.postId, change);
  }
}

/** The refusal `op` gets before anything is looked up, or its checked text (reply, editReply). */
function precheck(user: UserRow, op: ConversationOp): { code: WireErrorCode; reason?: string } | { content: string } {
  if ((op.type === 'hideReply' || op.type === 'restoreReply') && user.role !== 'admin') return { code: 'moderators_only' };
  if (op.type !== 'reply' && op.type !== 'editReply') return { content: '' };
  const parsed = replyContentSchema.safeParse(op.content);
  return parsed.success ? { content: parsed.data } : { code: 'invalid', reason: describeZodError(parsed.error) };
}

/** Applies a conversation's `op` for `user` at most once and answers applied, duplicate or refused. */
export async function applyConversationOp(db: Database, user: UserRow, op: ConversationOp): Promise<ServerOpResult> {
  const checked = precheck(user, op);
  if ('code' in checked) return refused(op, checked.code, checked.reason);
  if (await alreadyApplied(db, op.id)) return duplicate(db, user, op.id);
  const admin = user.role === 'admin';
  try {
    return await db.transaction(async (tx): Promise<ServerOpResult> => {
      const [head] = await tx.query('SELECT seq FROM change_head FOR UPDATE');
      const change = new ChangeNumber(Number(head!.seq) + 1);
      // The op's post: named by the op, or the post of the reply it names.
      const replyId = op.type === 'reply' ? op.id : op.type === 'view' ? null : op.replyId;
      const [claimed] = await tx.query(
        `INSERT INTO ops (id, user_id, post_id, reply_id)
         VALUES ($1, $2, coalesce($3::bigint, (SELECT post_id FROM replies WHERE id = $4::uuid)), $4::uuid)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [op.id, user.id, 'postId' in op ? op.postId : null, replyId],
      );
      if (!claimed) throw new Duplicate();
      const { post, reply } = await work(tx, user, op, checked.content, change);
      if (change.taken) {
        // The NOTIFY is delivered only after the commit.
        await tx.query('WITH head AS (UPDATE change_head SET seq = $1 RETURNING seq) SELECT pg_notify($2, seq::text) FROM head', [
          change.seq,
          CHANGES_CHANNEL,
        ]);
      }
      const wirePost = toWirePost(post, admin, user.email);
      return { id: op.id, status: 'applied', postId: wirePost.id, post: wirePost, ...(reply ? { reply: toWireReply(reply, admin) } : {}) };
    });
  } catch (error) {
    if (error instanceof Duplicate) return duplicate(db, user, op.id);
    if (error instanceof Refusal) return refused(op, error.code, error.reason);
    throw error;
  }
}
