// dismissFlags: an admin dismisses the open flags of a post (`replyId` null) or of a reply; the item
// stays as it is. Sent even when no flag is open on the device: the server may hold flags it has not pulled yet.
import { defineOp } from './define';

export const dismissFlags = defineOp({
  type: 'dismissFlags',
  since: 4,
  wire: (_z, f) => ({ postId: f.postId, replyId: f.replyId.nullable() }),
  parse: (op) => ({ postId: op.postId, replyId: op.replyId }),
  who: 'admin',
  sendUnchanged: true,
  async run(store, _actor, { postId, replyId }, context) {
    context.about(postId, replyId);
    await store.settleFlags({ postId, replyId }, 'dismissed');
  },
});
