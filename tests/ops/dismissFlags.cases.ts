// dismissFlags: admins only; the item's open flags are dismissed, the item stays.
import { ALICES_REPLY, BOBS_POST, casesOf } from './world';

export default casesOf('dismissFlags', [
  {
    name: 'an admin dismisses a post’s flags (its replies’ stay)',
    who: 'admin',
    payload: { postId: BOBS_POST, replyId: null },
    expect: {
      look: async (read) => [await read.flags(BOBS_POST), (await read.post(BOBS_POST))?.status],
      is: [['alice dismissed', 'bob open reply'], 'approved'],
    },
  },
  {
    name: 'and a reply’s',
    who: 'admin',
    payload: { postId: BOBS_POST, replyId: ALICES_REPLY },
    expect: { look: (read) => read.flags(BOBS_POST), is: ['alice open', 'bob dismissed reply'] },
  },
  { name: 'a member: admins_only', who: 'bob', payload: { postId: BOBS_POST, replyId: null }, expect: 'admins_only' },
]);
