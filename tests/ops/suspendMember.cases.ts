// suspendMember: admins only; a reason and an end in the future, at most ten years off. Who the member
// is (a staff account, an unknown id) only the server knows: tests/server/db/staff/safety.test.ts.
import { casesOf, MEMBER_ID, BOB } from './world';

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => Date.now() + days * DAY;
/** A fixed end in the future (the case table is built once). */
const UNTIL = inDays(3);

export default casesOf('suspendMember', [
  {
    name: 'a member: admins_only',
    who: 'alice',
    payload: { memberId: MEMBER_ID[BOB]!, until: inDays(3), reason: 'Spam links' },
    expect: 'admins_only',
  },
  { name: 'no reason: invalid', who: 'admin', payload: { memberId: MEMBER_ID[BOB]!, until: inDays(3) }, expect: 'invalid' },
  {
    name: 'a blank reason: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: inDays(3), reason: '   ' },
    expect: 'invalid',
  },
  {
    name: 'an end in the past: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: inDays(-1), reason: 'Spam links' },
    expect: 'invalid',
  },
  {
    name: 'eleven years: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: inDays(11 * 366), reason: 'Spam links' },
    expect: 'invalid',
  },
  {
    name: 'an end that is not a time: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: 1.5, reason: 'Spam links' },
    expect: 'invalid',
  },
  {
    name: 'an admin suspends a member with a reason: suspended until then, and why (the server records it, a device does not)',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: UNTIL, reason: ' Spam links ' },
    expect: { look: async (read) => read.suspension(BOB), is: { until: UNTIL, reason: 'Spam links' }, onDevice: null },
  },
  {
    name: 'an admin suspends a member: what they wrote stays',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, until: UNTIL, reason: 'Spam links' },
    expect: {
      look: async (read) => [(await read.post(2_000_000_000_001))?.status, await read.suspension(BOB)],
      is: ['approved', { until: UNTIL, reason: 'Spam links' }],
      onDevice: ['approved', null],
    },
  },
]);
