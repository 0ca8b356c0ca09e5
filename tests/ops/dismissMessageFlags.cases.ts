// dismissMessageFlags (issue 61): admins only; the message's open flags are dismissed, the message
// stays (tests/server/db/messages/flags.test.ts follows a flag from a member to its dismissal).
import { CONVERSATION, FIRST_MESSAGE, NO_CONVERSATION, casesOf } from './world';

export default casesOf('dismissMessageFlags', [
  {
    name: 'an admin dismisses a message’s flags (none open: nothing changes; the message stays; an admin’s device holds none)',
    who: 'admin',
    payload: { messageId: FIRST_MESSAGE },
    expect: {
      look: async (read) => [await read.messageFlags(FIRST_MESSAGE), (await read.messages(CONVERSATION)).length],
      is: [[], 1],
      onDevice: [[], 0],
    },
  },
  {
    name: 'a message nobody has: conversation_not_found (a device leaves it to its server)',
    who: 'admin',
    payload: { messageId: NO_CONVERSATION },
    deviceApplies: true,
    expect: 'conversation_not_found',
  },
  { name: 'a member: admins_only', who: 'bob', payload: { messageId: FIRST_MESSAGE }, expect: 'admins_only' },
  { name: 'a participant: admins_only', who: 'alice', payload: { messageId: FIRST_MESSAGE }, expect: 'admins_only' },
]);
