// vote: one ballot per member and poll, on an approved post they may see, while the poll is open;
// a second vote replaces the first. Options of every poll: A, B, C.
import { ALICE, ALICES_PENDING, ALICES_POST, ALICES_REJECTED, BOB, BOBS_OLD_POLL, BOBS_POST, casesOf, NO_POST } from './world';

export default casesOf('vote', [
  {
    name: 'a member votes: the option counts them, the poll counts a voter more',
    who: 'bob',
    payload: { postId: BOBS_POST, choices: [1] },
    expect: { look: (read) => read.poll(BOBS_POST, BOB), is: { counts: [1, 1, 0], voters: 2, mine: [1], closed: false } },
  },
  {
    name: 'a second vote replaces the first',
    who: 'alice',
    payload: { postId: BOBS_POST, choices: [2] },
    expect: { look: (read) => read.poll(BOBS_POST, ALICE), is: { counts: [0, 0, 1], voters: 1, mine: [2], closed: false } },
  },
  {
    name: 'several answers where the poll allows them',
    who: 'bob',
    payload: { postId: ALICES_POST, choices: [0, 2] },
    expect: { look: (read) => read.poll(ALICES_POST, BOB), is: { counts: [1, 0, 1], voters: 1, mine: [0, 2], closed: false } },
  },
  { name: 'two answers where it takes one: invalid', who: 'bob', payload: { postId: BOBS_POST, choices: [0, 1] }, expect: 'invalid' },
  { name: 'no answer: invalid', who: 'bob', payload: { postId: BOBS_POST, choices: [] }, expect: 'invalid' },
  { name: 'an option it does not have: invalid', who: 'bob', payload: { postId: BOBS_POST, choices: [3] }, expect: 'invalid' },
  { name: 'the same option twice: invalid', who: 'bob', payload: { postId: ALICES_POST, choices: [1, 1] }, expect: 'invalid' },
  { name: 'not a list: invalid', who: 'bob', payload: { postId: BOBS_POST, choices: 'A' }, expect: 'invalid' },
  { name: 'a closed poll: poll_closed', who: 'alice', payload: { postId: BOBS_OLD_POLL, choices: [0] }, expect: 'poll_closed' },
  {
    name: 'a poll of a pending post: poll_not_open',
    who: 'alice',
    payload: { postId: ALICES_PENDING, choices: [0] },
    expect: 'poll_not_open',
  },
  { name: 'an admin neither: poll_not_open', who: 'admin', payload: { postId: ALICES_PENDING, choices: [0] }, expect: 'poll_not_open' },
  { name: 'another’s pending post: not_found', who: 'bob', payload: { postId: ALICES_PENDING, choices: [0] }, expect: 'not_found' },
  { name: 'a post without a poll: no_poll', who: 'alice', payload: { postId: ALICES_REJECTED, choices: [0] }, expect: 'no_poll' },
  { name: 'a post no one has: not_found', who: 'alice', payload: { postId: NO_POST, choices: [0] }, expect: 'not_found' },
]);
