// flagMessage (issue 61): a participant flags another's message to the admins, once, never their own;
// nobody outside the conversation can (the admin included: they open it only through a flag).
import { FIRST_MESSAGE, NO_CONVERSATION, casesOf } from './world';

export default casesOf('flagMessage', [
  {
    name: 'a participant flags another’s message (the server keeps the flag; a device none)',
    who: 'bob',
    payload: { messageId: FIRST_MESSAGE, reason: 'spam', text: ' Selling panels ' },
    expect: { look: (read) => read.messageFlags(FIRST_MESSAGE), is: ['bob spam'], onDevice: [] },
  },
  {
    name: 'one’s own message: cannot_flag_own',
    who: 'alice',
    payload: { messageId: FIRST_MESSAGE, reason: 'spam' },
    expect: 'cannot_flag_own',
  },
  {
    name: 'a member not in the conversation: conversation_not_found',
    who: 'dave',
    payload: { messageId: FIRST_MESSAGE, reason: 'spam' },
    expect: 'conversation_not_found',
  },
  {
    name: 'an admin not in it: conversation_not_found',
    who: 'admin',
    payload: { messageId: FIRST_MESSAGE, reason: 'spam' },
    expect: 'conversation_not_found',
  },
  {
    name: 'a message nobody has: conversation_not_found',
    who: 'bob',
    payload: { messageId: NO_CONVERSATION, reason: 'spam' },
    expect: 'conversation_not_found',
  },
  { name: 'a reason there is not: invalid', who: 'bob', payload: { messageId: FIRST_MESSAGE, reason: 'boring' }, expect: 'invalid' },
]);
