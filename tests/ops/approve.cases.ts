// approve: admins only, pending posts only, first one wins; the author hears of it.
import { ALICE, ALICES_PENDING, ALICES_REJECTED, BOBS_POST, casesOf, NO_POST } from './world';

export default casesOf('approve', [
  {
    name: 'an admin approves a pending post; its author hears of it',
    who: 'admin',
    payload: { postId: ALICES_PENDING },
    expect: {
      look: async (read) => [(await read.post(ALICES_PENDING))?.status, await read.notifications(ALICE)],
      is: ['approved', ['approved unread', 'seed unread']],
    },
  },
  { name: 'a member: admins_only', who: 'bob', payload: { postId: ALICES_PENDING }, expect: 'admins_only' },
  { name: 'its own author: admins_only', who: 'alice', payload: { postId: ALICES_PENDING }, expect: 'admins_only' },
  { name: 'an approved post: already_reviewed', who: 'admin', payload: { postId: BOBS_POST }, expect: 'already_reviewed' },
  { name: 'a rejected post: already_reviewed', who: 'admin', payload: { postId: ALICES_REJECTED }, expect: 'already_reviewed' },
  { name: 'no such post: not_found', who: 'admin', payload: { postId: NO_POST }, expect: 'not_found' },
]);
