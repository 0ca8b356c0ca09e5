// setTheme: one of System, Light and Dark.
import { ALICE, casesOf } from './world';

export default casesOf('setTheme', [
  {
    name: 'a member chooses Dark',
    who: 'alice',
    payload: { theme: 'dark' },
    expect: { look: (read) => read.preferences(ALICE), is: { theme: 'dark', name: 'Alice' } },
  },
  {
    name: 'an admin chooses Light',
    who: 'admin',
    payload: { theme: 'light' },
    expect: { look: (read) => read.preferences('admin@insightexchange.app'), is: { theme: 'light', name: 'Admin' } },
  },
]);
