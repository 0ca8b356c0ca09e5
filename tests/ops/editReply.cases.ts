// editReply: only its author, never a hidden reply.
import { ALICES_REPLY, casesOf, HIDDEN_REPLY, NO_REPLY } from './world';

export default casesOf('editReply', [
  {
    name: 'its author edits it (trimmed)',
    who: 'alice',
    payload: { replyId: ALICES_REPLY, content: ' Agreed, with a caveat. ' },
    expect: { look: (read) => read.reply(ALICES_REPLY), is: { state: 'visible', content: 'Agreed, with a caveat.' } },
  },
  { name: 'another member: not_your_reply', who: 'bob', payload: { replyId: ALICES_REPLY, content: 'Mine now' }, expect: 'not_your_reply' },
  {
    name: 'an admin edits no one else’s reply: not_your_reply',
    who: 'admin',
    payload: { replyId: ALICES_REPLY, content: 'Edited' },
    expect: 'not_your_reply',
  },
  {
    name: 'a hidden reply, by its author: reply_hidden',
    who: 'bob',
    payload: { replyId: HIDDEN_REPLY, content: 'Nicer words' },
    expect: 'reply_hidden',
  },
  { name: 'no such reply: reply_not_found', who: 'alice', payload: { replyId: NO_REPLY, content: 'Hi' }, expect: 'reply_not_found' },
  { name: 'nothing written: invalid', who: 'alice', payload: { replyId: ALICES_REPLY, content: '' }, expect: 'invalid' },
]);
