// What every sign-in method does once its first factor is right (a password, the organisation's
// provider): with two-step verification on, the member is not signed in yet. A `two-step` challenge
// (db/members/challenges.ts) remembers who passed the first factor and how, and its id goes into the
// `ie_two_step` cookie (HttpOnly, SameSite=Strict, five minutes), which POST /api/session/two-step
// takes with the code. Without two-step verification the session opens at once. A passkey is both
// factors (user verification), so it opens the session itself.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context';
import { CHALLENGE_LIFETIME_MS, putChallenge } from '../db/members/challenges';
import type { UserRow } from '../db/members/accounts';
import { openSession } from '../plugins/session';

export const TWO_STEP_COOKIE = 'ie_two_step';

/** How the member passed the first factor (the staff log and the session's devices list may name it). */
export type FirstFactor = 'password' | 'sso';

/** What a `two-step` challenge holds. */
export interface TwoStepPending {
  method: FirstFactor;
  /** Set by single sign-on: what to do once the code is right (a redirect path inside the app). */
  returnTo?: string;
}

/**
 * Signs `user` in after a right first factor, or, with two-step verification on, sets the
 * `ie_two_step` cookie and answers 'two-step' (the caller answers `{ twoStep: true }` or redirects
 * to `/login?step=code`).
 */
export async function finishFirstFactor(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  pending: TwoStepPending,
): Promise<'signed-in' | 'two-step'> {
  if (!user.totpEnabledAt) {
    await openSession(ctx, request, reply, user.id);
    return 'signed-in';
  }
  const id = await putChallenge(ctx.db, 'two-step', pending, user.id);
  reply.setCookie(TWO_STEP_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/api/session',
    secure: request.protocol === 'https',
    maxAge: CHALLENGE_LIFETIME_MS['two-step'] / 1000,
  });
  return 'two-step';
}
