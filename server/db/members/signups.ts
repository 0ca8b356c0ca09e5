// Create Account's sign-ups waiting for their address to be confirmed (migration 19): the name, the
// password's hash and the SHA-256 of the emailed link's token. No account exists before the link is
// used, so an address nobody has proved owns nothing and can do nothing. A link works once and for
// SIGNUP_LINK_MS; a new sign-up for the address ends the older ones.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../storage/adapter';
import { SIGN_UP_TOKEN_PREFIX } from '../../../src/shared/account-schemas';
import { hashToken } from './accounts';

/** How long a sign-up's link works: a day, as an address confirmation's. */
export const SIGNUP_LINK_MS = 24 * 60 * 60_000;

export interface PendingSignUp {
  email: string;
  name: string;
  passwordHash: string;
}

/** Holds a sign-up for `email` (ending the address's older ones); returns the token for the link. */
export async function holdSignUp(tx: Sql, signUp: PendingSignUp, now = Date.now()): Promise<string> {
  // Expired rows of any address go too: the table holds only links that still work.
  await tx.query('DELETE FROM pending_signups WHERE email = $1 OR expires_at <= $2', [signUp.email, now]);
  // Marked, so the link's page knows to ask for the password before sending it.
  const token = SIGN_UP_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  await tx.query(
    'INSERT INTO pending_signups (token_hash, email, name, password_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [hashToken(token), signUp.email, signUp.name, signUp.passwordHash, now, now + SIGNUP_LINK_MS],
  );
  return token;
}

/** The live sign-up of `token`, without using it up (undefined: unknown, used or expired). */
export async function peekSignUp(sql: Sql, token: string, now = Date.now()): Promise<PendingSignUp | undefined> {
  const [row] = await sql.query<{ email: string; name: string; password_hash: string }>(
    'SELECT email, name, password_hash FROM pending_signups WHERE token_hash = $1 AND expires_at > $2',
    [hashToken(token), now],
  );
  return row ? { email: row.email, name: row.name, passwordHash: row.password_hash } : undefined;
}

/** Uses up the sign-up of `token` inside `tx` (one statement: of two requests, one gets it). */
export async function takeSignUp(tx: Sql, token: string, now = Date.now()): Promise<PendingSignUp | undefined> {
  const [row] = await tx.query<{ email: string; name: string; password_hash: string }>(
    'DELETE FROM pending_signups WHERE token_hash = $1 AND expires_at > $2 RETURNING email, name, password_hash',
    [hashToken(token), now],
  );
  return row ? { email: row.email, name: row.name, passwordHash: row.password_hash } : undefined;
}
