// view: a member opens a post they may see; their first view of it counts, once per member and post
// (later views change nothing).
import { defineOp } from './define';
import { visiblePost } from './rules';

export const view = defineOp({
  type: 'view',
  since: 2,
  wire: (_z, f) => ({ postId: f.postId }),
  parse: (op) => ({ postId: op.postId }),
  who: 'member',
  async run(store, actor, { postId }, context) {
    context.about(postId);
    const post = await visiblePost(store, actor, postId);
    if (await store.firstView(actor, postId)) await store.updatePost(postId, { views: post.views + 1 });
  },
});
