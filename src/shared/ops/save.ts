// save: a member saves (or, saved false, unsaves) a post. Saving needs an approved post they may see
// (`not_found`; their own or, for admins, anyone's pending or rejected post: `not_saveable`).
// Unsaving needs only a post they may see or a save to undo: a saved post that left the forum since
// can always be unsaved. The row is written every time, even when it says what it said: its new
// change number brings the saved post back to a device that freed space (a pull carries a save with
// its post and replies, whatever the cursor).
import { maySee } from '../post-rules';
import { defineOp, refuse } from './define';

export const save = defineOp('save', 5, 'member', {
  touches: 'saved',
  whileSilenced: true,
  wire: (z, f) => ({ postId: f.postId, saved: z.boolean() }),
  parse: (op) => ({ postId: op.postId, saved: op.saved }),
  async run(store, actor, { postId, saved }, context) {
    context.about(postId);
    const stored = await store.post(postId);
    const post = stored && maySee(stored, actor) ? stored : undefined;
    const before = await store.saved(actor, postId);
    if (saved && !post) refuse('not_found');
    if (saved && post!.status !== 'approved') refuse('not_saveable');
    if (!saved && !post && before === undefined) refuse('not_found');
    await store.setSaved(actor, postId, saved, context.now);
  },
});
