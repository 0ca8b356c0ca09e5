// removeGroupMember: admins only; a member out of a group (their devices hear it in the next pull).
import { ALICE, BOB, casesOf, MEMBER_ID, VENDORS } from './world';

export default casesOf('removeGroupMember', [
  { name: 'a member: admins_only', who: 'alice', payload: { groupId: VENDORS, memberId: MEMBER_ID[ALICE]! }, expect: 'admins_only' },
  {
    name: 'an admin takes Alice out: the group is empty',
    who: 'admin',
    payload: { groupId: VENDORS, memberId: MEMBER_ID[ALICE]! },
    expect: { look: (read) => read.groups(), is: ['Panel vendors (Who runs the panels.): '], onDevice: [] },
  },
  {
    name: 'taking out a member who is not in it changes nothing',
    who: 'admin',
    payload: { groupId: VENDORS, memberId: MEMBER_ID[BOB]! },
    expect: { look: (read) => read.groups(), is: ['Panel vendors (Who runs the panels.): Alice'], onDevice: [] },
  },
]);
