// closePoll: the post's author or an admin closes its poll for good; votes stay counted.
import { ALICE, ALICES_REJECTED, BOB, BOBS_OLD_POLL, BOBS_POST, casesOf } from './world';

export default casesOf('closePoll', [
  {
    name: 'its author closes the poll: the votes stay',
    who: 'bob',
    payload: { postId: BOBS_POST },
    expect: { look: (read) => read.poll(BOBS_POST, ALICE), is: { counts: [1, 0, 0], voters: 1, mine: [0], closed: true } },
  },
  {
    name: 'an admin closes it too',
    who: 'admin',
    payload: { postId: BOBS_POST },
    expect: { look: async (read) => (await read.poll(BOBS_POST, BOB))?.closed, is: true },
  },
  { name: 'another member: not_your_post', who: 'alice', payload: { postId: BOBS_POST }, expect: 'not_your_post' },
  { name: 'a closed poll: poll_closed', who: 'bob', payload: { postId: BOBS_OLD_POLL }, expect: 'poll_closed' },
  { name: 'a post without a poll: no_poll', who: 'alice', payload: { postId: ALICES_REJECTED }, expect: 'no_poll' },
]);
