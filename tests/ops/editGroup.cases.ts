// editGroup: admins only; a new name and description, by the rules of createGroup. A group nobody has
// and a taken name are the server's refusals alone (tests/server/db/sync/groups.test.ts).
import { casesOf, VENDORS } from './world';

export default casesOf('editGroup', [
  { name: 'a member: admins_only', who: 'bob', payload: { groupId: VENDORS, name: 'Vendors' }, expect: 'admins_only' },
  {
    name: 'an admin renames and describes a group: its members stay',
    who: 'admin',
    payload: { groupId: VENDORS, name: ' Panel partners ', description: 'Who we buy sample from.' },
    expect: { look: (read) => read.groups(), is: ['Panel partners (Who we buy sample from.): Alice'], onDevice: [] },
  },
  {
    name: 'no description: an empty one',
    who: 'admin',
    payload: { groupId: VENDORS, name: 'Panel vendors' },
    expect: { look: (read) => read.groups(), is: ['Panel vendors (): Alice'], onDevice: [] },
  },
  { name: 'a staff word: invalid', who: 'admin', payload: { groupId: VENDORS, name: 'Staff picks' }, expect: 'invalid' },
  { name: 'a name with a zero width space: invalid', who: 'admin', payload: { groupId: VENDORS, name: 'Pan\u200Bel' }, expect: 'invalid' },
]);
