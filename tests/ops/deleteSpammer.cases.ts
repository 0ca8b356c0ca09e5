// deleteSpammer: admins only; every post of the member leaves the forum, each reply of theirs is
// deleted, the posts they replied to count their visible replies again, and the open flags on what
// they wrote are resolved (the same on a local-only device: its Admin badge counts open flags).
import { ALICE, ALICES_PENDING, ALICES_POST, ALICES_REJECTED, ALICES_REPLY, BOBS_POST, BOBS_REPLY, casesOf, MEMBER_ID } from './world';

export default casesOf('deleteSpammer', [
  { name: 'a member: admins_only', who: 'bob', payload: { memberId: MEMBER_ID[ALICE]! }, expect: 'admins_only' },
  {
    name: 'an admin deletes a spammer: their posts and replies leave, the counts follow, the flags on them are resolved',
    who: 'admin',
    payload: { memberId: MEMBER_ID[ALICE]! },
    expect: {
      look: async (read) => [
        await read.postsOf(ALICE),
        await read.post(ALICES_POST),
        await read.post(ALICES_PENDING),
        await read.post(ALICES_REJECTED),
        (await read.reply(ALICES_REPLY))?.state,
        (await read.reply(BOBS_REPLY))?.state,
        (await read.post(BOBS_POST))?.comments,
        await read.flags(BOBS_POST),
        (await read.silence(ALICE)).silenced,
      ],
      is: [[], undefined, undefined, undefined, 'deleted', 'visible', 1, ['alice open', 'bob resolved reply'], true],
      // Only the server closes (and silences) the account: a device keeps no one's account but its own.
      onDevice: [[], undefined, undefined, undefined, 'deleted', 'visible', 1, ['alice open', 'bob resolved reply'], false],
    },
  },
]);
