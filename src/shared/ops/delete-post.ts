// deletePost: its author, or an admin, deletes a post (in any status); its replies leave with it,
// and its open flags and its replies' are settled (there is nothing left to look at).
import { mayDeletePost } from '../post-rules';
import { ABOUT_POST, defineOp, refuse } from './define';
import { subjectPost } from './rules';

export const deletePost = defineOp('deletePost', 3, 'member', {
  removes: 'post',
  staff: { when: 'othersWriting', verb: () => 'deleted the post' },
  whileSilenced: true,
  ...ABOUT_POST,
  async run(store, actor, { postId }, context) {
    if (!mayDeletePost(await subjectPost(store, actor, postId, context), actor)) refuse('not_your_post');
    await store.settleFlags({ postId, replyId: 'all' }, 'resolved');
    await store.removePost(postId, actor);
  },
});
