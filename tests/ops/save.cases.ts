// save: an approved post the member may see; unsaving needs only a save to undo or a post they see.
import { ALICE, ALICES_PENDING, ALICES_POST, BOB, BOBS_POST, casesOf } from './world';

export default casesOf('save', [
  {
    name: 'a member saves an approved post',
    who: 'alice',
    payload: { postId: BOBS_POST, saved: true },
    expect: { look: (read) => read.saved(ALICE, BOBS_POST), is: true },
  },
  {
    name: 'and unsaves one',
    who: 'bob',
    payload: { postId: ALICES_POST, saved: false },
    expect: { look: (read) => read.saved(BOB, ALICES_POST), is: false },
  },
  {
    name: 'unsaving what was never saved writes the row (its change number reaches the member’s devices)',
    who: 'alice',
    payload: { postId: BOBS_POST, saved: false },
    expect: { look: (read) => read.saved(ALICE, BOBS_POST), is: false },
  },
  { name: 'one’s own pending post: not_saveable', who: 'alice', payload: { postId: ALICES_PENDING, saved: true }, expect: 'not_saveable' },
  { name: 'another’s pending post: not_found', who: 'bob', payload: { postId: ALICES_PENDING, saved: true }, expect: 'not_found' },
]);
