// reply with mentions (issue 42): the members it names are told "mentioned" at once; the post's
// author, told "replied", is not told twice; nobody is told of mentioning themselves.
import { ALICE, ALICES_POST, BOB, BOBS_POST, casesOf, MEMBER_ID, NEW_ID, type Reader } from './world';

const mention = (name: string, email: string) => `[@${name}](/members/${MEMBER_ID[email]})`;

/** The reply is there (the post counts it), what Bob was told, and what the writer now follows and has read (issue 62). */
const written = async (read: Reader, postId: number, writer: string) =>
  (await read.reply(NEW_ID))?.state === 'visible'
    ? [(await read.post(postId))?.comments, await read.notifications(BOB), await read.following(writer), await read.readIn(writer)]
    : 'no reply';

export default casesOf('reply', [
  {
    name: 'a reply mentioning a member: they are told "mentioned"',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: ALICES_POST, content: `Ask ${mention('Bob', BOB)} about it.` },
    expect: {
      look: (read) => written(read, ALICES_POST, ALICE),
      is: [1, ['mentioned unread', 'seed unread'], ['post Weighting watching'], ['Weighting reply']],
    },
  },
  {
    name: 'the post’s author mentioned in a reply is told "replied" only',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: BOBS_POST, content: `Thanks ${mention('Bob', BOB)}.` },
    expect: {
      look: (read) => written(read, BOBS_POST, ALICE),
      is: [3, ['replied unread', 'seed unread'], ['post Panel speeders watching'], ['Panel speeders reply']],
    },
  },
  {
    name: 'mentioning oneself tells nobody',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, content: `As I, ${mention('Bob', BOB)}, said.` },
    expect: {
      look: (read) => written(read, ALICES_POST, BOB),
      is: [1, ['seed unread'], ['post Weighting watching'], ['Weighting reply']],
    },
  },
  {
    name: 'eleven members mentioned: invalid',
    who: 'alice',
    payload: {
      postId: BOBS_POST,
      content: Array.from({ length: 11 }, (_, index) => `[@M${index}](/members/${index.toString(16).padStart(16, '0')})`).join(' '),
    },
    expect: 'invalid',
  },
]);
