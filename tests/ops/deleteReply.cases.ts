// deleteReply: its author or an admin; the text is erased, its flags settled, the count follows.
import { ALICES_REPLY, BOBS_POST, casesOf, NO_REPLY, type Reader } from './world';

const gone = {
  look: async (read: Reader) => [await read.reply(ALICES_REPLY), (await read.post(BOBS_POST))?.comments, await read.flags(BOBS_POST)],
  is: [{ state: 'deleted', content: '' }, 1, ['alice open', 'bob resolved reply']],
};

export default casesOf('deleteReply', [
  { name: 'its author deletes it', who: 'alice', payload: { replyId: ALICES_REPLY }, expect: gone },
  { name: 'an admin deletes it', who: 'admin', payload: { replyId: ALICES_REPLY }, expect: gone },
  { name: 'another member: not_your_reply', who: 'bob', payload: { replyId: ALICES_REPLY }, expect: 'not_your_reply' },
  { name: 'no such reply: reply_not_found', who: 'alice', payload: { replyId: NO_REPLY }, expect: 'reply_not_found' },
]);
