// save: a member saves (or, saved false, unsaves) a post. Saving needs an approved post they may see
// (`not_found`; their own or, for admins, anyone's pending or rejected post: `not_saveable`).
// Unsaving needs only a post they may see or a save to undo: a saved post that left the forum since
// can always be unsaved.
import { maySee } from '../post-rules';
import { defineOp, refuse } from './define';

export const save = defineOp({
  type: 'save',
  since: 5,
  wire: (z, f) => ({ postId: f.postId, saved: z.boolean() }),
  parse: (op) => ({ postId: op.postId, saved: op.saved }),
  who: 'member',
  async run(store, actor, { postId, saved }, context) {
    context.about(postId);
    const stored = await store.post(postId);
    const post = stored && maySee(stored, actor) ? stored : undefined;
    const before = await store.saved(actor, postId);
    if (saved) {
      if (!post) refuse('not_found');
      if (post.status !== 'approved') refuse('not_saveable');
    } else if (!post && before === undefined) refuse('not_found');
    if (before === saved) return;
    await store.setSaved(actor, postId, saved, context.now);
  },
});
