// sendMessage (issue 61): a participant who has not left writes in the conversation; nobody else can,
// the admin included, and an unknown id answers as a conversation one is not in.
import { ALICE, BOB, CONVERSATION, NEW_ID, NO_CONVERSATION, casesOf } from './world';

export default casesOf('sendMessage', [
  {
    name: 'a participant answers: the message, and the conversation read by them',
    who: 'bob',
    id: NEW_ID,
    payload: { conversationId: CONVERSATION, body: ' Sure, **tomorrow**. ' },
    expect: {
      look: async (read) => [await read.messages(CONVERSATION), (await read.conversation(CONVERSATION, BOB))?.read],
      is: [['Alice: Hello Bob.', 'Bob: Sure, **tomorrow**.'], true],
    },
  },
  {
    name: 'its author writes again',
    who: 'alice',
    payload: { conversationId: CONVERSATION, body: 'And the quotas?' },
    expect: {
      look: async (read) => [await read.messages(CONVERSATION), (await read.conversation(CONVERSATION, ALICE))?.read],
      is: [['Alice: Hello Bob.', 'Alice: And the quotas?'], true],
    },
  },
  {
    name: 'a member not in it: conversation_not_found',
    who: 'dave',
    payload: { conversationId: CONVERSATION, body: 'Hi' },
    expect: 'conversation_not_found',
  },
  {
    name: 'an admin not in it: conversation_not_found',
    who: 'admin',
    payload: { conversationId: CONVERSATION, body: 'Hi' },
    expect: 'conversation_not_found',
  },
  {
    name: 'a conversation nobody has: conversation_not_found',
    who: 'bob',
    payload: { conversationId: NO_CONVERSATION, body: 'Hi' },
    expect: 'conversation_not_found',
  },
  { name: 'a blank message: invalid', who: 'bob', payload: { conversationId: CONVERSATION, body: '\u200B' }, expect: 'invalid' },
]);
