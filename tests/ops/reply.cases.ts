// reply: to an approved post the member may see; a quote of a reply of the same post tells its author.
import { ALICE, ALICES_PENDING, ALICES_POST, BOB, BOBS_POST, BOBS_REPLY, casesOf, NEW_ID, NO_POST } from './world';

export default casesOf('reply', [
  {
    name: 'a member replies, quoting a reply: its author hears "quoted", the count follows',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: BOBS_POST, content: '  Same here.  ', quoteId: BOBS_REPLY },
    expect: {
      look: async (read) => [
        await read.reply(NEW_ID),
        (await read.post(BOBS_POST))?.comments,
        await read.notifications(BOB),
        await read.following(ALICE),
        await read.readIn(ALICE),
      ],
      is: [
        { state: 'visible', content: 'Same here.' },
        3,
        ['quoted unread', 'seed unread'],
        ['post Panel speeders watching'],
        ['Panel speeders reply'],
      ],
    },
  },
  {
    name: 'a reply to another member’s post tells its author "replied"',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, content: 'Good one.' },
    expect: {
      look: async (read) => [
        await read.reply(NEW_ID),
        (await read.post(ALICES_POST))?.comments,
        await read.notifications('alice@example.com'),
        await read.following(BOB),
        await read.readIn(BOB),
      ],
      is: [
        { state: 'visible', content: 'Good one.' },
        1,
        ['replied unread', 'seed unread'],
        ['post Weighting watching'],
        ['Weighting reply'],
      ],
    },
  },
  {
    name: 'a pending post, its own author: replies_closed',
    who: 'alice',
    payload: { postId: ALICES_PENDING, content: 'Hi' },
    expect: 'replies_closed',
  },
  { name: 'a pending post of another: not_found', who: 'bob', payload: { postId: ALICES_PENDING, content: 'Hi' }, expect: 'not_found' },
  { name: 'no such post: not_found', who: 'bob', payload: { postId: NO_POST, content: 'Hi' }, expect: 'not_found' },
  { name: 'nothing written: invalid', who: 'bob', payload: { postId: BOBS_POST, content: '   ' }, expect: 'invalid' },
  { name: 'not text at all: invalid', who: 'bob', payload: { postId: BOBS_POST, content: 42 }, expect: 'invalid' },
  {
    name: 'a right-to-left override: invalid',
    who: 'bob',
    payload: { postId: BOBS_POST, content: 'See report\u202Egnp.exe' },
    expect: 'invalid',
  },
  {
    name: 'an attachment named with a hidden character: invalid',
    who: 'bob',
    payload: { postId: BOBS_POST, content: 'File', attachments: [{ sha256: 'a'.repeat(64), name: 'report\u202Egnp.exe' }] },
    expect: 'invalid',
  },
]);
