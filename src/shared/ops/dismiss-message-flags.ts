// dismissMessageFlags: an admin dismisses the open flags of a message (the Flagged messages panel's
// "Dismiss"), as dismissFlags does a post's; the message stays as it is. The server alone keeps message
// flags: a device sends it unchanged, and the staff log names the message's author.
import { defineOp, refuse } from './define';

export const dismissMessageFlags = defineOp('dismissMessageFlags', 7, 'admin', {
  staff: { when: 'always', verb: () => 'dismissed the flags on a message of' },
  wire: (_z, f) => ({ messageId: f.uuid }),
  parse: (op) => ({ messageId: op.messageId }),
  sendUnchanged: true,
  async run(store, _actor, { messageId }) {
    // A message nobody has (or one since deleted): nothing to dismiss, and nothing for the log.
    if (!(await store.dismissMessageFlags(messageId))) refuse('conversation_not_found');
  },
});
