// flag: a member flags an approved post they may see, or a visible reply of it, once per item ever,
// never their own. The flag's id is the op's; admins see it in their Flags queue, the member as "Flagged".
import { flagRefusal } from '../moderation';
import { maySee } from '../post-rules';
import { defineOp, refuse } from './define';
import { flagInput } from './fields';

export const flag = defineOp('flag', 4, 'member', {
  limits: ['flags_per_day'],
  wire: (z, f) => ({ postId: f.postId, replyId: f.replyId.nullable(), reason: z.unknown(), text: z.unknown().optional() }),
  parse(op) {
    const { reason, text } = flagInput(op.reason, op.text);
    return { postId: op.postId, replyId: op.replyId, reason, text: text || undefined };
  },
  creates: 'flag',
  async run(store, actor, { postId, replyId, reason, text = '' }, context) {
    context.about(postId, replyId);
    const reply = replyId === null ? null : await store.reply(replyId);
    // A post the member may not see (a private space's, pending) is refused as no post is: a flag
    // never tells that it exists, nor that a reply is on it.
    const post = await store.post(postId);
    const refusal = flagRefusal(post && maySee(post, actor) ? post : undefined, reply, actor);
    if (refusal) refuse(refusal);
    if (await store.hasFlagged(actor, { postId, replyId })) refuse('already_flagged');
    const { name } = await store.member(actor);
    const flagger = { flagger: name, flaggerEmail: actor.email };
    await store.insertFlag({ id: context.id, postId, replyId, reason, text, ...flagger, createdAt: context.now, state: 'open' });
  },
});
