// Accounts in connected mode live on the server; this device keeps only a password verifier
// (salted PBKDF2, as for local accounts) for members who signed in here before, so that they can
// sign in again while offline. A member never seen on this device needs a connection.

import { db } from '../storage/schema';
import { afterFirstPosts } from '../storage/idle';
import { hashPassword, verifyPassword } from '../members/password';
import { makeSession } from '../members/session-rules';
import { normalizeEmail } from '../../shared/post-rules';
import type { Session } from '../types';

/** Remembers a verifier after a sign-in the server accepted (never the password itself). */
export async function rememberVerifier(session: Session, password: string): Promise<void> {
  const hashed = await hashPassword(password);
  await db.accounts.put({ email: session.email, name: session.name, role: session.role, createdAt: Date.now(), ...hashed });
}

/** How long a verifier waits for the forum's first posts to be painted before it is made anyway (when idle). */
export const VERIFIER_WAIT_MS = 3_000;

/** When a deferred verifier is made: `run` is called once; the answer cancels the call. */
export type VerifierSchedule = (run: () => void) => () => void;

/**
 * The default: once the forum's first posts are painted (or VERIFIER_WAIT_MS has passed), when the
 * browser is idle; at once when the page is hidden (the member may be leaving: a closed tab keeps none).
 */
const afterTheFirstPosts: VerifierSchedule = (run) => {
  const cancel = afterFirstPosts(VERIFIER_WAIT_MS, run);
  if (typeof document === 'undefined') return cancel;
  const hidden = () => {
    if (document.visibilityState === 'hidden') run();
  };
  document.addEventListener('visibilitychange', hidden);
  return () => {
    cancel();
    document.removeEventListener('visibilitychange', hidden);
  };
};

/** The verifiers a sign-in left to be made, by email (one each: the last sign-in's password). */
const waiting = new Map<string, { start: () => Promise<void>; cancel: () => void }>();
/** The verifiers being made now, by email. */
const making = new Map<string, Promise<void>>();

/**
 * Remembers a verifier later (issue 64, item 5): the 600,000 rounds of PBKDF2 no longer compete with
 * the sign-in's first sync and the forum's first paint. The password is held in this closure (never
 * stored) until then; Log out makes it first (finishWaitingVerifiers), and a two-step answer drops
 * it (forgetVerifierForTwoStep). Failing to make it never fails anything.
 */
export function rememberVerifierLater(session: Session, password: string, schedule: VerifierSchedule = afterTheFirstPosts): void {
  const email = normalizeEmail(session.email);
  waiting.get(email)?.cancel();
  let cancel = () => {};
  const entry = {
    start: async (): Promise<void> => {
      if (waiting.get(email) !== entry) return making.get(email);
      waiting.delete(email);
      cancel();
      const made = (making.get(email) ?? Promise.resolve())
        .then(() => rememberVerifier(session, password))
        .catch(() => undefined)
        .finally(() => {
          if (making.get(email) === made) making.delete(email);
        });
      making.set(email, made);
      return made;
    },
    cancel: () => cancel(),
  };
  waiting.set(email, entry);
  cancel = schedule(() => void entry.start());
}

/** Makes every verifier still waiting now, and resolves once all are stored (Log out calls it first). */
export async function finishWaitingVerifiers(): Promise<void> {
  await Promise.all([...waiting.values()].map((entry) => entry.start()));
  await Promise.all([...making.values()]);
}

/** True while a verifier for `email` waits to be made or is being made. */
export function verifierWaiting(email: string): boolean {
  const normalized = normalizeEmail(email);
  return waiting.has(normalized) || making.has(normalized);
}

/**
 * The session for an offline sign-in: a member who signed in on this device before, with the same
 * password; null for anyone else (a new device needs the server).
 */
export async function offlineSession(email: string, password: string): Promise<Session | null> {
  const account = await db.accounts.get(normalizeEmail(email));
  if (!account?.hash || !account.salt || !account.iterations) return null;
  const matches = await verifyPassword(password, { hash: account.hash, salt: account.salt, iterations: account.iterations });
  // The role is the one the server gave at the last online sign-in here (it enforces it anyway).
  return matches ? { ...makeSession(account.email, account.name), role: account.role === 'admin' ? 'admin' : 'user' } : null;
}

/** True when this member has signed in on this device before (an offline try can be checked). */
export async function hasVerifier(email: string): Promise<boolean> {
  return Boolean((await db.accounts.get(normalizeEmail(email)))?.hash);
}

/**
 * The account of `email` has two-step verification on (issue 63): its verifier goes, since a
 * password alone must not sign it in, even offline; an offline try then says it needs the network.
 * Learned at an online sign-in that asked for a code, or from a pull (the server says `twoStep`
 * while it is on, so a device that kept a verifier hears of it when it was turned on elsewhere).
 */
export async function forgetVerifierForTwoStep(email: string): Promise<void> {
  const normalized = normalizeEmail(email);
  // A verifier a sign-in before left to be made is dropped; one being made is let finish, then replaced.
  waiting.get(normalized)?.cancel();
  waiting.delete(normalized);
  await making.get(normalized);
  const account = await db.accounts.get(normalized);
  // Already forgotten (each pull of such an account says it again): nothing to write.
  if (account?.twoStep && !account.hash) return;
  await db.accounts.put({
    email: normalized,
    name: account?.name ?? '',
    role: account?.role,
    createdAt: account?.createdAt ?? Date.now(),
    twoStep: true,
  });
}

/** True when this device learned that the account of `email` has two-step verification on. */
export async function usesTwoStep(email: string): Promise<boolean> {
  return Boolean((await db.accounts.get(normalizeEmail(email)))?.twoStep);
}
