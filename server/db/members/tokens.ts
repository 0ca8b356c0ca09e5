// The links of email (migration 13's account_tokens): confirm an address, reset a password, stop
// notification emails, move an account to a new address (issue 59: the token's email is the new one). Only a token's SHA-256 is stored; a reset or confirm link works once and
// until it expires; asking for a new reset link ends the older ones. An unsubscribe link is not used
// up (a mail program may post it twice) and lasts as long as the emails it came with.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../storage/adapter';
import { hashToken } from './accounts';

export type TokenPurpose = 'reset' | 'confirm' | 'unsubscribe' | 'email_change';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  reset: 30 * 60_000,
  confirm: 24 * 60 * 60_000,
  unsubscribe: 90 * 24 * 60 * 60_000,
  email_change: 24 * 60 * 60_000,
};

/** A new token of `purpose` for `userId` at `email`; returns the token itself (for the link). */
export async function issueToken(tx: Sql, userId: number, purpose: TokenPurpose, email: string, now = Date.now()): Promise<string> {
  // One reset (or confirm) link at a time: a new one ends the older ones.
  if (purpose !== 'unsubscribe')
    await tx.query('UPDATE account_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
      userId,
      purpose,
      now,
    ]);
  const token = randomBytes(32).toString('base64url');
  await tx.query(
    'INSERT INTO account_tokens (token_hash, user_id, purpose, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [hashToken(token), userId, purpose, email, now, now + TOKEN_LIFETIME_MS[purpose]],
  );
  return token;
}

export interface TokenOwner {
  userId: number;
  email: string;
}

/** Whom a live token of `purpose` belongs to (unused, not expired), without using it up. */
export async function peekToken(sql: Sql, token: string, purpose: TokenPurpose, now = Date.now()): Promise<TokenOwner | undefined> {
  const [row] = await sql.query<{ user_id: unknown; email: string }>(
    'SELECT user_id, email FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3',
    [hashToken(token), purpose, now],
  );
  return row ? { userId: Number(row.user_id), email: row.email } : undefined;
}

/**
 * Uses up a live token of `purpose` inside `tx`: one statement, so of two requests with one token
 * only one gets its owner. Undefined for an unknown, used or expired token.
 */
export async function useToken(tx: Sql, token: string, purpose: TokenPurpose, now = Date.now()): Promise<TokenOwner | undefined> {
  const [row] = await tx.query<{ user_id: unknown; email: string }>(
    `UPDATE account_tokens SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING user_id, email`,
    [hashToken(token), purpose, now],
  );
  return row ? { userId: Number(row.user_id), email: row.email } : undefined;
}
