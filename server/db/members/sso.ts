// Members linked to the organisation's provider (issue 63, migration 31): users.oidc_subject
// ("issuer subject", unique), the provider's refresh token and when the provider last vouched for them.
import type { Sql } from '../storage/adapter';
import { createUser, findUser, type UserRow } from './accounts';

/**
 * The password hash of a member who signs in only through the provider: no password verifies against
 * it (it is no scrypt hash), and unlike '' (an author nobody signs in to) the account is a real one.
 * A reset link still gives them a password, unless OIDC_ONLY keeps members to the provider.
 */
export const PROVIDER_ONLY_HASH = 'sso';

/** The member linked to the provider's `subject`, or undefined. */
export async function userBySubject(sql: Sql, subject: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<{ email: string }>('SELECT email FROM users WHERE oidc_subject = $1', [subject]);
  return row ? findUser(sql, row.email) : undefined;
}

/** Links `userId` to `subject` and notes that the provider vouched for them now. */
export async function linkSubject(sql: Sql, userId: number, subject: string, refreshToken: string | null, now = Date.now()): Promise<void> {
  await sql.query('UPDATE users SET oidc_subject = $2, oidc_refresh_token = $3, oidc_checked_at = $4 WHERE id = $1', [
    userId,
    subject,
    refreshToken,
    now,
  ]);
}

/** A first sign-in's account: no password, the provider's verified email confirmed, linked. Undefined when the email was taken meanwhile. */
export async function createProviderMember(
  tx: Sql,
  member: { email: string; name: string; subject: string; refreshToken: string | null },
  now = Date.now(),
): Promise<UserRow | undefined> {
  const user = await createUser(tx, { email: member.email, name: member.name, role: 'user', passwordHash: PROVIDER_ONLY_HASH });
  if (!user) return undefined;
  await tx.query('UPDATE users SET email_verified_at = $2 WHERE id = $1', [user.id, now]);
  await linkSubject(tx, user.id, member.subject, member.refreshToken, now);
  return { ...user, emailVerifiedAt: now, oidcSubject: member.subject, oidcCheckedAt: now };
}

/**
 * Claims the recheck of `userId` when the provider last vouched for them more than `recheckMs` ago:
 * one conditional UPDATE, so of the requests of every instance only one checks. Returns the refresh
 * token to check with (null: none was issued), or undefined when the check is not due or another
 * request claimed it.
 */
export async function claimRecheck(
  sql: Sql,
  userId: number,
  recheckMs: number,
  now = Date.now(),
): Promise<{ refreshToken: string | null } | undefined> {
  const [row] = await sql.query<{ oidc_refresh_token: string | null }>(
    `UPDATE users SET oidc_checked_at = $2 WHERE id = $1 AND oidc_subject IS NOT NULL AND coalesce(oidc_checked_at, 0) <= $3
     RETURNING oidc_refresh_token`,
    [userId, now, now - recheckMs],
  );
  return row ? { refreshToken: row.oidc_refresh_token ?? null } : undefined;
}

/** After a recheck the provider could not answer: the next request tries again after `retryMs`, not a full period later. */
export async function recheckLater(sql: Sql, userId: number, recheckMs: number, retryMs: number, now = Date.now()): Promise<void> {
  await sql.query('UPDATE users SET oidc_checked_at = $2 WHERE id = $1', [userId, now - recheckMs + retryMs]);
}

/** Keeps the provider's (possibly rotated) refresh token. */
export async function storeRefreshToken(sql: Sql, userId: number, refreshToken: string): Promise<void> {
  await sql.query('UPDATE users SET oidc_refresh_token = $2 WHERE id = $1', [userId, refreshToken]);
}
