// reply with mentions (issue 42): the members it names are told "mentioned" at once; the post's
// author, told "replied", is not told twice; nobody is told of mentioning themselves.
import { ALICES_POST, BOB, BOBS_POST, casesOf, MEMBER_ID } from './world';

const mention = (name: string, email: string) => `[@${name}](/members/${MEMBER_ID[email]})`;

export default casesOf('reply', [
  {
    name: 'a reply mentioning a member: they are told "mentioned"',
    who: 'alice',
    payload: { postId: ALICES_POST, content: `Ask ${mention('Bob', BOB)} about it.` },
    expect: { look: (read) => read.notifications(BOB), is: ['mentioned unread', 'seed unread'] },
  },
  {
    name: 'the post’s author mentioned in a reply is told "replied" only',
    who: 'alice',
    payload: { postId: BOBS_POST, content: `Thanks ${mention('Bob', BOB)}.` },
    expect: { look: (read) => read.notifications(BOB), is: ['replied unread', 'seed unread'] },
  },
  {
    name: 'mentioning oneself tells nobody',
    who: 'bob',
    payload: { postId: ALICES_POST, content: `As I, ${mention('Bob', BOB)}, said.` },
    expect: { look: (read) => read.notifications(BOB), is: ['seed unread'] },
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
