// readNotifications: one's own only; others' ids change nothing.
import { ALICE, ALICES_NOTE, BOB, BOBS_NOTE, casesOf } from './world';

export default casesOf('readNotifications', [
  {
    name: 'a member reads their own',
    who: 'alice',
    payload: { ids: [ALICES_NOTE] },
    expect: { look: (read) => read.notifications(ALICE), is: ['seed read'] },
  },
  {
    name: 'another member’s id changes nothing',
    who: 'alice',
    payload: { ids: [BOBS_NOTE, ALICES_NOTE] },
    expect: {
      look: async (read) => [await read.notifications(ALICE), await read.notifications(BOB)],
      is: [['seed read'], ['seed unread']],
    },
  },
]);
