// startConversation (issue 61): a member writes to 1–20 confirmed members (by public id, never an
// email) with a subject and a first message; hostile lists (21 members, none, repeats, only oneself,
// unknown ids) and hidden characters are clear refusals. Messages open once one of the member's posts
// or replies is approved (the server's word: a device cannot know, and leaves it to its server).
import { ALICE, BOB, CONVERSATION, DAVE, MEMBER_ID, NEW_ID, casesOf } from './world';

const TO_BOB = [MEMBER_ID[BOB]!];
const NEW_CONVERSATION = '0c000000-0000-4000-8000-0000000000c7';
const start = (overrides: Record<string, unknown> = {}) => ({
  conversationId: NEW_CONVERSATION,
  recipients: TO_BOB,
  subject: ' Fieldwork ',
  body: ' Can we talk about the panel? ',
  ...overrides,
});
const many = (count: number) => Array.from({ length: count }, (_, index) => index.toString(16).padStart(16, 'e'));

export default casesOf('startConversation', [
  {
    name: 'a member writes to another: the conversation, its first message, read by its author',
    who: 'alice',
    id: NEW_ID,
    payload: start(),
    expect: {
      look: async (read) => [await read.conversation(NEW_CONVERSATION, ALICE), await read.messages(NEW_CONVERSATION)],
      is: [{ subject: 'Fieldwork', participants: ['Alice', 'Bob'], read: true, left: false }, ['Alice: Can we talk about the panel?']],
      // A device names the recipients once its server has said who they are.
      onDevice: [{ subject: 'Fieldwork', participants: ['Alice', ''], read: true, left: false }, ['Alice: Can we talk about the panel?']],
    },
  },
  { name: 'to 21 members: invalid', who: 'alice', payload: start({ recipients: many(21) }), expect: 'invalid' },
  { name: 'to nobody: invalid', who: 'alice', payload: start({ recipients: [] }), expect: 'invalid' },
  { name: 'recipients that are not a list: invalid', who: 'alice', payload: start({ recipients: 'b0b0b0b0b0b0b0b0' }), expect: 'invalid' },
  { name: 'a recipient twice: invalid', who: 'alice', payload: start({ recipients: [...TO_BOB, ...TO_BOB] }), expect: 'invalid' },
  { name: 'to oneself: invalid', who: 'alice', payload: start({ recipients: [MEMBER_ID[ALICE]!] }), expect: 'invalid' },
  { name: 'an email for a recipient: invalid', who: 'alice', payload: start({ recipients: [BOB] }), expect: 'invalid' },
  {
    name: 'a recipient nobody is: recipient_not_found (the server knows every member)',
    who: 'alice',
    payload: start({ recipients: [...TO_BOB, 'ffffffffffffffff'] }),
    expect: 'recipient_not_found',
    deviceApplies: true,
  },
  {
    name: 'a member with nothing approved yet: messages_closed',
    who: 'dave',
    payload: start(),
    expect: 'messages_closed',
    deviceApplies: true,
  },
  {
    name: 'a subject with a right-to-left override: invalid',
    who: 'alice',
    payload: start({ subject: 'Invoice \u202Efdp.exe' }),
    expect: 'invalid',
  },
  { name: 'a subject of zero-width spaces only: invalid', who: 'alice', payload: start({ subject: '\u200B\u200B' }), expect: 'invalid' },
  { name: 'a blank message: invalid', who: 'alice', payload: start({ body: '   ' }), expect: 'invalid' },
  { name: 'a message past a reply’s length: invalid', who: 'alice', payload: start({ body: 'x'.repeat(10_001) }), expect: 'invalid' },
  {
    name: 'the id of a conversation there is: conversation_not_found (never joins it)',
    who: 'bob',
    payload: start({ conversationId: CONVERSATION, recipients: [MEMBER_ID[DAVE]!] }),
    expect: 'conversation_not_found',
  },
]);
