// vote: a member votes on the poll of an approved post they may see (one ballot a poll, changeable
// until it closes); closePoll: its author or an admin closes it for good. A poll of a pending or
// rejected post takes no vote (`poll_not_open`); a closed one neither (`poll_closed`).
import { isPollClosed, validateBallot } from '../polls';
import { mayDeletePost } from '../post-rules';
import { check, defineOp, refuse } from './define';
import { ballotChoices } from './fields';
import { subjectPost } from './rules';

export const vote = defineOp('vote', 6, 'member', {
  limits: ['votes_per_day'],
  wire: (z, f) => ({ postId: f.postId, choices: z.unknown() }),
  parse: (op) => ({ postId: op.postId, choices: ballotChoices(op.choices) }),
  sendUnchanged: true,
  async run(store, actor, { postId, choices }, context) {
    const post = await subjectPost(store, actor, postId, context);
    const poll = post.poll;
    if (!poll) refuse('no_poll');
    if (post.status !== 'approved') refuse('poll_not_open');
    if (isPollClosed(poll, context.now)) refuse('poll_closed');
    check(validateBallot(poll, choices));
    await store.castBallot(actor, postId, choices);
  },
});

export const closePoll = defineOp('closePoll', 6, 'member', {
  wire: (_z, f) => ({ postId: f.postId }),
  parse: (op) => ({ postId: op.postId }),
  async run(store, actor, { postId }, context) {
    const post = await subjectPost(store, actor, postId, context);
    const poll = post.poll;
    if (!poll) refuse('no_poll');
    if (!mayDeletePost(post, actor)) refuse('not_your_post');
    if (poll.closedAt !== null) refuse('poll_closed');
    await store.updatePost(postId, { poll: { ...poll, closedAt: context.now } });
  },
});
