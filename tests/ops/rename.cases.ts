// rename: a name (validateName), on the account and on what the member wrote.
import { ADMIN, ALICE, ALICES_POST, ALICES_REPLY, casesOf } from './world';

export default casesOf('rename', [
  {
    name: 'a member renames (trimmed): their posts and replies show it',
    who: 'alice',
    payload: { name: '  Alicia  ' },
    expect: {
      look: async (read) => [
        (await read.preferences(ALICE)).name,
        (await read.post(ALICES_POST))?.author,
        await read.replyAuthor(ALICES_REPLY),
      ],
      is: ['Alicia', 'Alicia', 'Alicia'],
    },
  },
  { name: 'a blank name: invalid', who: 'alice', payload: { name: '   ' }, expect: 'invalid' },
  { name: 'a name of only invisible characters: invalid', who: 'alice', payload: { name: '\u200B\u200B' }, expect: 'invalid' },
  { name: 'a name with a right-to-left override: invalid', who: 'alice', payload: { name: 'Bob\u202E' }, expect: 'invalid' },
  { name: 'a member named Admin: invalid (the staff’s word)', who: 'alice', payload: { name: 'Admin' }, expect: 'invalid' },
  {
    name: 'the admin may be named Site Admin',
    who: 'admin',
    payload: { name: 'Site Admin' },
    expect: { look: async (read) => (await read.preferences(ADMIN)).name, is: 'Site Admin' },
  },
  { name: 'a name of 101 characters: invalid', who: 'alice', payload: { name: 'x'.repeat(101) }, expect: 'invalid' },
]);
