// editPost: the author replaces the text of their own post, by the one rule of an edit (editedPost):
// a rejected post goes back to review (pending, resubmitted, from now, its old reason gone), an
// approved one stays and shows "edited". Only over the status the author saw (`base`): a review
// that came in between refuses it (`edit_conflict`).
import { editedPost, mayEditPost, POST_STATUSES } from '../post-rules';
import { defineOp, refuse } from './define';
import { postFields } from './fields';
import { visiblePost } from './rules';

export const editPost = defineOp({
  type: 'editPost',
  since: 3,
  wire: (z, f) => ({ postId: f.postId, post: z.looseObject({}), base: z.enum(POST_STATUSES) }),
  parse: (op) => ({ postId: op.postId, post: postFields(op.post), base: op.base }),
  who: 'member',
  keeps: 'edit',
  async run(store, actor, { postId, post: fields, base }, context) {
    context.about(postId);
    const stored = await visiblePost(store, actor, postId);
    if (!mayEditPost(stored, actor)) refuse('not_your_post');
    if (stored.status !== base) refuse('edit_conflict');
    const { title, content, category, tags, status, editedAt, resubmitted, previous } = editedPost(stored, fields, context.now);
    const resubmits = stored.status === 'rejected';
    await store.updatePost(postId, {
      title,
      content,
      category,
      tags,
      status,
      editedAt: editedAt ?? null,
      resubmitted: resubmitted ?? false,
      previous: previous ?? null,
      ...(resubmits ? { submittedAt: context.now, reason: null } : {}),
    });
  },
});
