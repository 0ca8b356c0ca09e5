// rename: a name (validateName), on the account and on what the member wrote.
import { ALICE, ALICES_POST, casesOf } from './world';

export default casesOf('rename', [
  {
    name: 'a member renames (trimmed): their posts show it',
    who: 'alice',
    payload: { name: '  Alicia  ' },
    expect: {
      look: async (read) => [(await read.preferences(ALICE)).name, (await read.post(ALICES_POST))?.author],
      is: ['Alicia', 'Alicia'],
    },
  },
  { name: 'a blank name: invalid', who: 'alice', payload: { name: '   ' }, expect: 'invalid' },
  { name: 'a name of 101 characters: invalid', who: 'alice', payload: { name: 'x'.repeat(101) }, expect: 'invalid' },
]);
