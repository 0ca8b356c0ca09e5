// silenceMember: admins only; with a reason the member reads and, optionally, an end in the future
// (at most ten years off), after which they write again (isSilencedAt). What a silenced member may
// still do is the one rule of silence (rules.ts, runOp): tests/unit/shared/ops/silence-rule.test.ts, and
// with the server that records it,
// tests/server/db/staff/safety.test.ts.
import { BOB, BOBS_POST, CAROL, casesOf, MEMBER_ID } from './world';

const DAY = 24 * 60 * 60 * 1000;
/** A fixed end in the future (the case table is built once; ms precision kept as sent). */
const UNTIL = Math.floor((Date.now() + 3 * DAY) / 1000) * 1000 + 999;

export default casesOf('silenceMember', [
  {
    name: 'a member: admins_only',
    who: 'alice',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links' },
    expect: 'admins_only',
  },
  {
    name: 'a blank reason: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: '   ' },
    expect: 'invalid',
  },
  {
    name: 'an end in the past: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links', until: Date.now() - DAY },
    expect: 'invalid',
  },
  {
    name: 'an end that is not a time: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links', until: 1.5 },
    expect: 'invalid',
  },
  {
    name: 'eleven years: invalid',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links', until: Date.now() + 11 * 366 * DAY },
    expect: 'invalid',
  },
  {
    name: 'an admin silences a member with a reason, until a day: the member is silenced, why and until when',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: ' Spam links ', until: UNTIL },
    expect: { look: async (read) => read.silence(BOB), is: { silenced: true, reason: 'Spam links', until: UNTIL } },
  },
  {
    name: 'with no end date: silenced until an admin lifts it',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links', until: null },
    expect: { look: async (read) => read.silence(BOB), is: { silenced: true, reason: 'Spam links', until: null } },
  },
  {
    name: 'an admin silences a member: what they wrote stays',
    who: 'admin',
    payload: { memberId: MEMBER_ID[BOB]!, silenced: true, reason: 'Spam links' },
    expect: {
      look: async (read) => [(await read.post(BOBS_POST))?.status, await read.silence(BOB)],
      is: ['approved', { silenced: true, reason: 'Spam links', until: null }],
    },
  },
  {
    name: 'unsilence a silenced member: they write again; neither reason nor end is kept',
    who: 'admin',
    payload: { memberId: MEMBER_ID[CAROL]!, silenced: false, reason: 'ignored', until: UNTIL },
    expect: { look: async (read) => read.silence(CAROL), is: { silenced: false, reason: null, until: null } },
  },
]);
