// deletePost: its author, or an admin, deletes a post (in any status); its replies leave with it,
// and its open flags and its replies' are settled (there is nothing left to look at).
import { mayDeletePost } from '../post-rules';
import { defineOp, refuse } from './define';
import { visiblePost } from './rules';

export const deletePost = defineOp({
  type: 'deletePost',
  since: 3,
  wire: (_z, f) => ({ postId: f.postId }),
  parse: (op) => ({ postId: op.postId }),
  who: 'member',
  async run(store, actor, { postId }, context) {
    context.about(postId);
    const post = await visiblePost(store, actor, postId);
    if (!mayDeletePost(post, actor)) refuse('not_your_post');
    await store.settleFlags({ postId, replyId: 'all' }, 'resolved');
    await store.removePost(postId, actor);
  },
});
