// hideReply and restoreReply: an admin hides a visible reply (members read "Hidden by a moderator"
// in its place; its open flags are settled and its author hears of it) or shows a hidden one again.
// A reply already as wanted is left as it is.
import { notificationsForHiddenReply } from '../moderation';
import type { Actor } from '../post-rules';
import { defineOp, type OpContext } from './define';
import { visibleReply } from './rules';
import type { OpStore } from './store';

async function moderate(store: OpStore, actor: Actor, replyId: string, hide: boolean, context: OpContext) {
  const { reply, post } = await visibleReply(store, actor, replyId);
  context.about(reply.postId, replyId);
  const [from, to] = hide ? (['visible', 'hidden'] as const) : (['hidden', 'visible'] as const);
  if (reply.state !== from) return;
  await store.updateReply(replyId, { state: to });
  await store.recountComments(reply.postId);
  if (!hide) return;
  await store.settleFlags({ postId: reply.postId, replyId }, 'resolved');
  await store.notify(notificationsForHiddenReply(post, reply, actor), context.now);
}

export const hideReply = defineOp({
  type: 'hideReply',
  since: 2,
  wire: (_z, f) => ({ replyId: f.replyId }),
  parse: (op) => ({ replyId: op.replyId }),
  who: 'admin',
  run: (store, actor, { replyId }, context) => moderate(store, actor, replyId, true, context),
});

export const restoreReply = defineOp({
  type: 'restoreReply',
  since: 2,
  wire: (_z, f) => ({ replyId: f.replyId }),
  parse: (op) => ({ replyId: op.replyId }),
  who: 'admin',
  run: (store, actor, { replyId }, context) => moderate(store, actor, replyId, false, context),
});
