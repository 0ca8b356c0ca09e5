// setAutoWatch (issue 62): whether writing a post or replying makes the member watch it.
import { ALICE, casesOf } from './world';

export default casesOf('setAutoWatch', [
  {
    name: 'a member turns "Watch what I write" off',
    who: 'alice',
    payload: { on: false },
    expect: { look: (read) => read.autoWatch(ALICE), is: false },
  },
  {
    name: 'turning it on when it is on changes nothing',
    who: 'alice',
    payload: { on: true },
    expect: { look: (read) => read.autoWatch(ALICE), is: true },
  },
]);
