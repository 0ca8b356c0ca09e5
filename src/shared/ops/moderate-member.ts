// The Members tab's operations (admins only, protocol 6): suspend a member until a time, with a
// reason (their sessions end on every instance; signing in says why and until when; `until` null
// lifts it), silence or unsilence them (they read, but write nothing), and delete a spammer (every
// post and reply they wrote leaves the forum, and the account is closed). Staff accounts are out of
// reach (`staff_member`). A device cannot know every member: it sends them whatever it holds (the
// server settles them), and a spammer's posts and replies leave its own rows at once, the flags on
// them resolved.
import { defineOp, refuseInput } from './define';
import { reasonText } from './fields';
import { staffTarget } from './rules';

/** The longest suspension: ten years (anything longer is a Delete spammer). */
export const MAX_SUSPENSION_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export const suspendMember = defineOp('suspendMember', 6, 'admin', {
  staff: { when: 'always', verb: ({ until }) => (until === null ? 'lifted the suspension of' : 'suspended') },
  wire: (z, f) => ({ memberId: f.memberId, until: z.number().nullable(), reason: z.unknown().optional() }),
  parse(op) {
    if (op.until !== null && (!Number.isSafeInteger(op.until) || op.until <= 0)) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'Choose the date the suspension ends.' });
    }
    const reason = reasonText(op.reason);
    if (op.until !== null && reason === null) {
      refuseInput({ code: 'invalid', title: 'A reason is needed', message: 'Say why: the member reads it when they try to sign in.' });
    }
    return { memberId: op.memberId, until: op.until, reason: reason ?? undefined };
  },
  sendUnchanged: true,
  async run(store, _actor, { memberId, until, reason = null }, context) {
    if (until !== null && until <= context.now) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'Choose a date in the future for the suspension to end.' });
    }
    if (until !== null && until - context.now > MAX_SUSPENSION_MS) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'A suspension lasts at most ten years: for longer, delete the account.' });
    }
    await staffTarget(store, memberId);
    await store.moderateMember(memberId, { suspendedUntil: until, suspendReason: until === null ? null : reason });
  },
});

/**
 * Silence (issue 59, item 7): with a reason the member reads in their banner and, optionally, an
 * end (`until`, ms: the end of the day the admin picked), after which they write again without
 * anyone lifting it (isSilencedAt). Unsilence takes neither. Older devices send neither: a silence
 * without a reason stays theirs to send.
 */
export const silenceMember = defineOp('silenceMember', 6, 'admin', {
  staff: { when: 'always', verb: ({ silenced }) => (silenced === false ? 'unsilenced' : 'silenced') },
  wire: (z, f) => ({
    memberId: f.memberId,
    silenced: z.boolean(),
    reason: z.unknown().optional(),
    until: z.number().nullable().optional(),
  }),
  parse(op) {
    const until = op.silenced ? (op.until ?? null) : null;
    if (until !== null && (!Number.isSafeInteger(until) || until <= 0)) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'Choose the date the silence ends, or none.' });
    }
    const reason = op.silenced ? reasonText(op.reason) : null;
    if (op.silenced && op.reason !== undefined && reason === null) {
      refuseInput({ code: 'invalid', title: 'A reason is needed', message: 'Say why: the member reads it while they are silenced.' });
    }
    return { memberId: op.memberId, silenced: op.silenced, reason: reason ?? undefined, until };
  },
  sendUnchanged: true,
  async run(store, _actor, { memberId, silenced, reason = null, until }, context) {
    if (until !== null && until <= context.now) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'Choose a date in the future for the silence to end.' });
    }
    if (until !== null && until - context.now > MAX_SUSPENSION_MS) {
      refuseInput({ code: 'invalid', title: 'Error', message: 'A silence lasts at most ten years: for longer, delete the account.' });
    }
    await staffTarget(store, memberId);
    await store.moderateMember(memberId, { silenced, silenceReason: reason, silencedUntil: until });
  },
});

export const deleteSpammer = defineOp('deleteSpammer', 6, 'admin', {
  staff: { when: 'always', verb: () => 'deleted the spammer' },
  wire: (_z, f) => ({ memberId: f.memberId }),
  parse: (op) => ({ memberId: op.memberId }),
  sendUnchanged: true,
  async run(store, actor, { memberId }) {
    await staffTarget(store, memberId);
    // The flags on what they wrote are resolved (no member sees those items any more), then it leaves.
    await store.settleFlagsOfMember(memberId, 'resolved');
    await store.removeMemberContent(memberId, actor);
  },
});
