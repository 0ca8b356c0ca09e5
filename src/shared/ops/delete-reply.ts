// deleteReply: its author, or an admin, removes a reply for good (hiding keeps it restorable): the
// text is erased, not kept (a deleted reply is only a place in the conversation), its open flags
// are settled, and the post's count follows.
import { mayDeleteReply } from '../post-rules';
import { ABOUT_REPLY, defineOp, refuse } from './define';
import { subjectReply } from './rules';

export const deleteReply = defineOp('deleteReply', 2, 'member', {
  removes: 'reply',
  staff: { when: 'othersWriting', verb: () => 'deleted a reply on' },
  whileSilenced: true,
  ...ABOUT_REPLY,
  async run(store, actor, { replyId }, context) {
    const { reply } = await subjectReply(store, actor, replyId, context);
    if (!mayDeleteReply(reply, actor)) refuse('not_your_reply');
    await store.updateReply(replyId, { state: 'deleted', content: '' });
    await store.settleFlags({ postId: reply.postId, replyId }, 'resolved');
    await store.recountComments(reply.postId);
  },
});
