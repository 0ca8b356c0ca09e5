// hidePost: an admin takes an approved post off the forum (it becomes rejected, with the reason);
// its open flags and its replies' are settled (no member sees them any more); its author hears of it.
import { notificationsForReview } from '../moderation';
import { defineOp, refuse } from './define';
import { reasonText } from './fields';

export const hidePost = defineOp('hidePost', 4, 'admin', {
  staff: { when: 'always', verb: () => 'hid the post' },
  wire: (z, f) => ({ postId: f.postId, reason: z.unknown().optional() }),
  parse: (op) => ({ postId: op.postId, reason: reasonText(op.reason) ?? undefined }),
  async run(store, actor, { postId, reason = null }, context) {
    context.about(postId);
    const post = await store.post(postId);
    if (!post) refuse('not_found');
    if (post.status !== 'approved') refuse('not_on_forum');
    const { now } = context;
    await store.updatePost(postId, { status: 'rejected', reason, reviewedAt: now, hiddenAt: now, resubmitted: false });
    await store.settleFlags({ postId, replyId: 'all' }, 'resolved');
    await store.notify(notificationsForReview(post, 'postHidden', reason, actor), now);
  },
});
