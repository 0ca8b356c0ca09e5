// editPost: the author replaces the text of their own post, by the one rule of an edit (editedPost):
// a rejected post goes back to review (pending, resubmitted, from now, its old reason gone), an
// approved one stays and shows "edited". Only over the status the author saw (`base`): a review
// that came in between refuses it (`edit_conflict`).
import { editedPost, mayEditPost, POST_STATUSES } from '../post-rules';
import { defineOp, refuse } from './define';
import { postFields } from './fields';
import { postableCategory, subjectPost, tellMentioned } from './rules';

export const editPost = defineOp('editPost', 3, 'member', {
  limits: ['edits_per_day'],
  wire: (z, f) => ({ postId: f.postId, post: z.looseObject({}), base: z.enum(POST_STATUSES) }),
  parse: (op) => ({ postId: op.postId, post: postFields(op.post), base: op.base }),
  keeps: 'edit',
  async run(store, actor, { postId, post: fields, base }, context) {
    const stored = await subjectPost(store, actor, postId, context);
    if (!mayEditPost(stored, actor)) refuse('not_your_post');
    if (stored.status !== base) refuse('edit_conflict');
    // Moved to another category: one the author may post in (an edit in place is not a new post).
    if (fields.category !== stored.category) await postableCategory(store, actor, fields.category);
    const edited = editedPost(stored, fields, context.now);
    const { title, content, category, tags, status } = edited;
    const changes = { editedAt: edited.editedAt ?? null, resubmitted: edited.resubmitted ?? false, previous: edited.previous ?? null };
    const resubmits = stored.status === 'rejected';
    await store.updatePost(postId, {
      title,
      content,
      category,
      tags,
      status,
      ...changes,
      ...(resubmits ? { submittedAt: context.now, reason: null } : {}),
    });
    // An approved post's edit tells the members it mentions who were never told of a mention in it
    // (store.mentionable): one added now, not one taken out and put back. The notification names the
    // post as it is now: its earlier title is the edit's `previous`, which only admins read.
    if (stored.status === 'approved')
      await tellMentioned(
        store,
        actor,
        content,
        { post: { ...stored, title, category, tags }, replyId: null, author: stored },
        context.now,
      );
  },
});
