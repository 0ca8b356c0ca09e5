// Sign in, sign up and sign out. Accounts created here are kept in IndexedDB with a PBKDF2 hash;
// an email that never signed up on this browser still signs in, as the spec says, with a name
// derived from the email. The session itself is written by session.ts.

import { db } from '../storage/schema';
import { DataError, invalidInput, isDataError, toDataError, withDataErrors } from '../storage/errors';
import { hashPassword, verifyPassword } from './password';
import { normalizeEmail } from '../../shared/post-rules';
import { saveSession } from './session';
import { makeSession } from './session-rules';
import { validateSignIn, validateSignUp } from '../../shared/validation';
import type { AccountRow } from '../storage/schema';
import type { Session } from '../types';

async function findAccount(email: string): Promise<AccountRow | undefined> {
  try {
    return await db.accounts.get(email);
  } catch (error) {
    const mapped = toDataError(error);
    // A browser that cannot open IndexedDB at all can hold no account, so there is no password to
    // check. Any other failure (a database that opened, then erred) is an error, never a pass.
    if (isDataError(mapped, 'storage_unavailable') && (typeof indexedDB === 'undefined' || db.hasFailed())) return undefined;
    throw mapped;
  }
}

/**
 * Signs in. An account created on this browser must match its password; any other email is
 * accepted (client-only sign-in). Role is `admin` exactly for the admin address.
 */
export async function signIn(email: string, password: string): Promise<Session> {
  const problem = validateSignIn(email, password);
  if (problem) throw invalidInput(problem);
  const normalized = normalizeEmail(email);
  const account = await findAccount(normalized);
  if (account?.hash && account.salt && account.iterations) {
    const matches = await verifyPassword(password, { hash: account.hash, salt: account.salt, iterations: account.iterations });
    if (!matches) throw new DataError('bad_credentials');
  }
  const session = makeSession(normalized, account?.name ?? '');
  saveSession(session);
  return session;
}

/** Creates an account on this browser (name and password hash) and signs it in. */
export async function signUp(name: string, email: string, password: string): Promise<Session> {
  const problem = validateSignUp(name, email, password);
  if (problem) throw invalidInput(problem);
  const normalized = normalizeEmail(email);
  const existing = await findAccount(normalized);
  if (existing?.hash) {
    throw new DataError('account_exists');
  }
  const hashed = await hashPassword(password);
  const account: AccountRow = { email: normalized, name: name.trim(), createdAt: Date.now(), ...hashed };
  await withDataErrors(() => db.accounts.put(account));
  const session = makeSession(normalized, account.name);
  saveSession(session);
  return session;
}

/** Signs out in this tab and, through the session change, in every other tab. */
export function signOut(): void {
  saveSession(null);
}
