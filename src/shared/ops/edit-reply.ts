// editReply: the author replaces the text of their own reply, unless a moderator hid it.
import { defineOp, refuse } from './define';
import { replyText } from './fields';
import { ownReply } from './rules';

export const editReply = defineOp('editReply', 2, 'member', {
  limits: ['edits_per_day'],
  wire: (z, f) => ({ replyId: f.replyId, content: z.unknown() }),
  parse: (op) => ({ replyId: op.replyId, content: replyText(op.content) }),
  keeps: 'reply',
  async run(store, actor, { replyId, content }, context) {
    if ((await ownReply(store, actor, replyId, context)).reply.state === 'hidden') refuse('reply_hidden');
    await store.updateReply(replyId, { content, editedAt: context.now });
  },
});
