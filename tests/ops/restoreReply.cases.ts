// restoreReply: admins only; a hidden reply shows again and counts again.
import { ALICES_REPLY, BOBS_POST, casesOf, HIDDEN_REPLY } from './world';

export default casesOf('restoreReply', [
  {
    name: 'an admin restores a hidden reply',
    who: 'admin',
    payload: { replyId: HIDDEN_REPLY },
    expect: { look: async (read) => [(await read.reply(HIDDEN_REPLY))?.state, (await read.post(BOBS_POST))?.comments], is: ['visible', 3] },
  },
  {
    name: 'a visible reply stays as it is',
    who: 'admin',
    payload: { replyId: ALICES_REPLY },
    expect: { look: async (read) => (await read.reply(ALICES_REPLY))?.state, is: 'visible' },
  },
  { name: 'its own author: admins_only', who: 'bob', payload: { replyId: HIDDEN_REPLY }, expect: 'admins_only' },
]);
