// Accounts in connected mode live on the server; this device keeps only a password verifier
// (salted PBKDF2, as for local accounts) for members who signed in here before, so that they can
// sign in again while offline. A member never seen on this device needs a connection.

import { db } from '../storage/schema';
import { hashPassword, verifyPassword } from '../members/password';
import { makeSession } from '../members/session-rules';
import { normalizeEmail } from '../../shared/post-rules';
import type { Session } from '../types';

/** Remembers a verifier after a sign-in the server accepted (never the password itself). */
export async function rememberVerifier(session: Session, password: string): Promise<void> {
  const hashed = await hashPassword(password);
  await db.accounts.put({ email: session.email, name: session.name, role: session.role, createdAt: Date.now(), ...hashed });
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
