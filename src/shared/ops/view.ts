// view: a member opens a post they may see; their first view of it counts, once per member and post
// (later views change nothing).
import { ABOUT_POST, defineOp } from './define';
import { subjectPost } from './rules';

export const view = defineOp('view', 2, 'member', {
  whileSilenced: true,
  ...ABOUT_POST,
  async run(store, actor, { postId }, context) {
    const { views } = await subjectPost(store, actor, postId, context);
    if (await store.firstView(actor, postId)) await store.updatePost(postId, { views: views + 1 });
  },
});
