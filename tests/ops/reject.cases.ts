// reject: admins only, pending posts only, with an optional reason the author reads.
import { ALICE, ALICES_PENDING, BOBS_POST, casesOf } from './world';

export default casesOf('reject', [
  {
    name: 'an admin rejects with a reason (trimmed); the author hears of it',
    who: 'admin',
    payload: { postId: ALICES_PENDING, reason: '  Not research  ' },
    expect: {
      look: async (read) => {
        const post = await read.post(ALICES_PENDING);
        return [post?.status, post?.reason, await read.notifications(ALICE)];
      },
      is: ['rejected', 'Not research', ['rejected unread', 'seed unread']],
    },
  },
  {
    name: 'without a reason: none',
    who: 'admin',
    payload: { postId: ALICES_PENDING },
    expect: {
      look: async (read) => [(await read.post(ALICES_PENDING))?.reason, await read.notifications(ALICE)],
      is: [null, ['rejected unread', 'seed unread']],
    },
  },
  { name: 'a member: admins_only', who: 'alice', payload: { postId: ALICES_PENDING }, expect: 'admins_only' },
  {
    name: 'a reason of 501 characters: invalid',
    who: 'admin',
    payload: { postId: ALICES_PENDING, reason: 'x'.repeat(501) },
    expect: 'invalid',
  },
  { name: 'an approved post: already_reviewed', who: 'admin', payload: { postId: BOBS_POST, reason: 'Late' }, expect: 'already_reviewed' },
]);
