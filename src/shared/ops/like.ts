// like: one more like (or `count`, from an import) on an approved post the member may see. An
// increment, so two devices liking at once never lose one. The server applies likes in a group
// commit (server/db/ops/like-batch.ts), the one set-based path; tests/ops holds it to this definition.
import { defineOp, refuse } from './define';
import { subjectPost } from './rules';

/** The most likes one operation may carry (an import sends more as several). */
export const MAX_LIKES_PER_OP = 1000;

export const like = defineOp('like', 1, 'member', {
  limits: ['likes_per_day'],
  cost: ({ count }) => count ?? 1,
  batched: true,
  wire: (z, f) => ({ postId: f.postId, count: z.number().int().min(1).max(MAX_LIKES_PER_OP).optional() }),
  parse: (op) => ({ postId: op.postId, count: op.count }),
  async run(store, actor, { postId, count }, context) {
    if ((await subjectPost(store, actor, postId, context)).status !== 'approved') refuse('not_approved');
    await store.addLikes(postId, count ?? 1);
  },
});
