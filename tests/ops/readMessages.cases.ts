// readMessages (issue 61): a participant marks a conversation read (their own place in it only).
import { BOB, CONVERSATION, NO_CONVERSATION, casesOf } from './world';

export default casesOf('readMessages', [
  {
    name: 'a participant reads it',
    who: 'bob',
    payload: { conversationId: CONVERSATION },
    expect: { look: async (read) => (await read.conversation(CONVERSATION, BOB))?.read, is: true },
  },
  {
    name: 'a member not in it: conversation_not_found',
    who: 'dave',
    payload: { conversationId: CONVERSATION },
    expect: 'conversation_not_found',
  },
  {
    name: 'an admin not in it: conversation_not_found',
    who: 'admin',
    payload: { conversationId: CONVERSATION },
    expect: 'conversation_not_found',
  },
  {
    name: 'a conversation nobody has: conversation_not_found',
    who: 'bob',
    payload: { conversationId: NO_CONVERSATION },
    expect: 'conversation_not_found',
  },
]);
