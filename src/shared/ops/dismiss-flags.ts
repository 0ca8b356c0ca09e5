// dismissFlags: an admin dismisses the open flags of a post (`replyId` null) or of a reply; the item
// stays as it is. Sent even when no flag is open on the device: the server may hold flags it has not pulled yet.
import { defineOp } from './define';

export const dismissFlags = defineOp('dismissFlags', 4, 'admin', {
  staff: { when: 'always', verb: () => 'dismissed the flags on' },
  wire: (_z, f) => ({ postId: f.postId, replyId: f.replyId.nullable() }),
  parse: (op) => ({ postId: op.postId, replyId: op.replyId }),
  sendUnchanged: true,
  async run(store, _actor, target, context) {
    context.about(target.postId, target.replyId);
    await store.settleFlags(target, 'dismissed');
  },
});
