// leaveConversation (issue 61): a participant leaves; what is said afterwards never reaches them
// (tests/server/db/messages/messages.test.ts follows the pull). Nobody else can leave it for them.
import { BOB, CONVERSATION, NO_CONVERSATION, casesOf } from './world';

export default casesOf('leaveConversation', [
  {
    name: 'a participant leaves it',
    who: 'bob',
    payload: { conversationId: CONVERSATION },
    expect: { look: async (read) => (await read.conversation(CONVERSATION, BOB))?.left, is: true },
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
