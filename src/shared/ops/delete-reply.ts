// deleteReply: its author, or an admin, removes a reply for good (hiding keeps it restorable): the
// text is erased, not kept (a deleted reply is only a place in the conversation), its open flags
// are settled, and the post's count follows.
import { mayDeleteReply } from '../post-rules';
import { defineOp, refuse } from './define';
import { visibleReply } from './rules';

export const deleteReply = defineOp({
  type: 'deleteReply',
  since: 2,
  wire: (_z, f) => ({ replyId: f.replyId }),
  parse: (op) => ({ replyId: op.replyId }),
  who: 'member',
  async run(store, actor, { replyId }, context) {
    const { reply } = await visibleReply(store, actor, replyId);
    context.about(reply.postId, replyId);
    if (!mayDeleteReply(reply, actor)) refuse('not_your_reply');
    await store.updateReply(replyId, { state: 'deleted', content: '' });
    await store.settleFlags({ postId: reply.postId, replyId }, 'resolved');
    await store.recountComments(reply.postId);
  },
});
