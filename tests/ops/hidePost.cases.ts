// hidePost: admins only, approved posts only; its flags settled, its author told.
import { ALICES_PENDING, BOB, BOBS_POST, casesOf } from './world';

export default casesOf('hidePost', [
  {
    name: 'an admin hides an approved post with a reason',
    who: 'admin',
    payload: { postId: BOBS_POST, reason: 'Spam' },
    expect: {
      look: async (read) => {
        const post = await read.post(BOBS_POST);
        return [post?.status, post?.reason, await read.flags(BOBS_POST), await read.notifications(BOB)];
      },
      is: ['rejected', 'Spam', ['alice resolved', 'bob resolved reply'], ['postHidden unread', 'seed unread']],
    },
  },
  { name: 'a pending post: not_on_forum', who: 'admin', payload: { postId: ALICES_PENDING }, expect: 'not_on_forum' },
  { name: 'a member: admins_only', who: 'alice', payload: { postId: BOBS_POST }, expect: 'admins_only' },
]);
