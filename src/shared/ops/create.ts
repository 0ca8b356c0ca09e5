// create: a member writes a new post. It starts pending, with no likes, replies or views, "Just
// now", by the member as they are named now; the server gives it its id (the device's is temporary).
import { mayWrite } from './rules';
import { pendingPost } from '../post-rules';
import { defineOp } from './define';
import { postFields } from './fields';

export const create = defineOp('create', 1, 'member', {
  wire: (z) => ({ post: z.looseObject({}) }),
  parse: (op) => ({ post: postFields(op.post) }),
  creates: 'post',
  keeps: 'post',
  async run(store, actor, { post }, context) {
    await mayWrite(store, actor);
    const id = await store.newPostId(context.now);
    context.about(id);
    // It enters the review queue now.
    await store.insertPost({ ...pendingPost(id, await store.member(actor), post), submittedAt: context.now });
  },
});
