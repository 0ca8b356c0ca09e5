// hideReply and restoreReply: an admin hides a visible reply (members read "Hidden by a moderator"
// in its place; its open flags are settled and its author hears of it) or shows a hidden one again.
// A reply already as wanted is left as it is.
import { notificationsForHiddenReply } from '../moderation';
import { ABOUT_REPLY, defineOp } from './define';
import { subjectReply } from './rules';

export const hideReply = defineOp('hideReply', 2, 'admin', {
  staff: { when: 'always', verb: () => 'hid a reply on' },
  // Before protocol 4 a member's hide or restore of a reply was refused `moderators_only`.
  legacyCodes: [{ code: 'admins_only', before: 4, as: 'moderators_only' }],
  ...ABOUT_REPLY,
  async run(store, actor, { replyId }, context) {
    const { reply, post } = await subjectReply(store, actor, replyId, context);
    if (reply.state !== 'visible') return;
    await store.updateReply(replyId, { state: 'hidden' });
    await store.recountComments(reply.postId);
    await store.settleFlags({ postId: reply.postId, replyId }, 'resolved');
    await store.notify(notificationsForHiddenReply(post, reply, actor), context.now);
  },
});

export const restoreReply = defineOp('restoreReply', 2, 'admin', {
  staff: { when: 'always', verb: () => 'restored a reply on' },
  legacyCodes: [{ code: 'admins_only', before: 4, as: 'moderators_only' }],
  ...ABOUT_REPLY,
  async run(store, actor, { replyId }, context) {
    const { reply } = await subjectReply(store, actor, replyId, context);
    if (reply.state !== 'hidden') return;
    await store.updateReply(replyId, { state: 'visible' });
    await store.recountComments(reply.postId);
  },
});
