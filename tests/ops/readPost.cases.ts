// readPost (issue 62): a member's read position in a post they may see; it only moves forward.
import { ALICE, ALICES_PENDING, BOBS_POST, casesOf, NO_POST } from './world';

export default casesOf('readPost', [
  {
    name: 'a member reads a post to its first reply',
    who: 'alice',
    payload: { postId: BOBS_POST, readTo: 1 },
    expect: { look: (read) => read.readIn(ALICE), is: ['Panel speeders reply'] },
  },
  {
    name: 'reads the post itself (none of its replies)',
    who: 'alice',
    payload: { postId: BOBS_POST, readTo: 0 },
    expect: { look: (read) => read.readIn(ALICE), is: ['Panel speeders post'] },
  },
  { name: 'another’s pending post: not_found', who: 'bob', payload: { postId: ALICES_PENDING, readTo: 1 }, expect: 'not_found' },
  { name: 'no such post: not_found', who: 'bob', payload: { postId: NO_POST, readTo: 1 }, expect: 'not_found' },
]);
