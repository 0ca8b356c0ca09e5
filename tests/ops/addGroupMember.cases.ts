// addGroupMember: admins only; a member into a group. A group or member nobody has is the server's
// refusal alone (a device acts on trust: tests/server/db/sync/groups.test.ts).
import { BOB, CAROL, casesOf, MEMBER_ID, VENDORS } from './world';

export default casesOf('addGroupMember', [
  { name: 'a member: admins_only', who: 'alice', payload: { groupId: VENDORS, memberId: MEMBER_ID[BOB]! }, expect: 'admins_only' },
  {
    name: 'an admin adds Bob: the group holds Alice and Bob',
    who: 'admin',
    payload: { groupId: VENDORS, memberId: MEMBER_ID[BOB]! },
    expect: { look: (read) => read.groups(), is: ['Panel vendors (Who runs the panels.): Alice, Bob'], onDevice: [] },
  },
  {
    name: 'a silenced member may be in a group too',
    who: 'admin',
    payload: { groupId: VENDORS, memberId: MEMBER_ID[CAROL]! },
    expect: { look: (read) => read.groups(), is: ['Panel vendors (Who runs the panels.): Alice, Carol'], onDevice: [] },
  },
]);
