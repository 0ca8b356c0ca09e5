// hideReply: admins only; its flags are settled and its author told; a hidden reply stays as it is.
import { ALICE, ALICES_REPLY, BOBS_POST, casesOf, HIDDEN_REPLY } from './world';

export default casesOf('hideReply', [
  {
    name: 'an admin hides a reply: it leaves the count, its flags are settled, its author hears of it',
    who: 'admin',
    payload: { replyId: ALICES_REPLY },
    expect: {
      look: async (read) => [
        (await read.reply(ALICES_REPLY))?.state,
        (await read.post(BOBS_POST))?.comments,
        await read.flags(BOBS_POST),
        await read.notifications(ALICE),
      ],
      is: ['hidden', 1, ['alice open', 'bob resolved reply'], ['replyHidden unread', 'seed unread']],
    },
  },
  {
    name: 'a hidden reply stays as it is',
    who: 'admin',
    payload: { replyId: HIDDEN_REPLY },
    expect: { look: async (read) => [(await read.reply(HIDDEN_REPLY))?.state, (await read.post(BOBS_POST))?.comments], is: ['hidden', 2] },
  },
  { name: 'a member: admins_only', who: 'bob', payload: { replyId: ALICES_REPLY }, expect: 'admins_only' },
]);
