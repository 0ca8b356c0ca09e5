// silenceMember: admins only. What a silenced member may still do is the one rule of silence
// (rules.ts, runOp): tests/unit/ops/silence-rule.test.ts, and with the server that records it,
// tests/server/safety.test.ts.
import { BOB, BOBS_POST, casesOf, MEMBER_ID } from './world';

export default casesOf('silenceMember', [
  { name: 'a member: admins_only', who: 'alice', payload: { memberId: MEMBER_ID[BOB]!, silenced: true }, expect: 'admins_only' },
  {
    name: 'an admin silences a member: what they wrote stays',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true },
    expect: { look: async (read) => (await read.post(BOBS_POST))?.status, is: 'approved' },
  },
]);
