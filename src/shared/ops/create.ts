// create: a member writes a new post. It starts pending, with no likes, replies or views, "Just
// now", by the member as they are named now; the server gives it its id (the device's is temporary).
import { pendingPost } from '../post-rules';
import { check, defineOp, refuse } from './define';
import { newPoll, validatePoll } from '../polls';
import { namedFiles, postFields } from './fields';
import { postableCategory } from './rules';
import { followWhatTheyWrote } from './follow';

export const create = defineOp('create', 1, 'member', {
  limits: ['posts_per_day', 'seconds_between_posts'],
  wire: (z) => ({ post: z.looseObject({}) }),
  parse: (op) => ({ post: postFields(op.post) }),
  creates: 'post',
  keeps: 'post',
  files: (op) => namedFiles(op.post.attachments),
  async run(store, actor, { post }, context) {
    await postableCategory(store, actor, post.category);
    // A poll's closing time is checked against the time the post is made (offline: the device's).
    if (post.poll) check(validatePoll(post.poll, context.now));
    // Every file named must be one this member uploaded (the server) or this device keeps (local-only).
    const attachments = post.attachments ? await store.attachments(actor, post.attachments) : [];
    if (!attachments) refuse('attachment_missing');
    const id = await store.newPostId(context.now);
    context.about(id);
    // It enters the review queue now.
    const poll = post.poll ? { poll: newPoll(post.poll) } : {};
    const files = attachments.length > 0 ? { attachments } : {};
    await store.insertPost({ ...pendingPost(id, await store.member(actor), post), ...poll, ...files, submittedAt: context.now });
    await followWhatTheyWrote(store, actor, id, 0, context.now);
  },
});
