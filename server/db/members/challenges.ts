// The secrets of a sign-in in progress (migration 31's auth_challenges): an OpenID Connect state with
// its nonce and PKCE verifier, a WebAuthn challenge, a password accepted and awaiting its two-step code,
// a first single sign-on awaiting its name or its link. Each is single-use and short-lived, and lives
// in the database so that any instance of a cluster can finish what another began. Only the id's
// SHA-256 is stored: the id itself travels in a cookie or a URL, never in a row.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../storage/adapter';
import { hashToken } from './accounts';

export type ChallengeKind = 'oidc' | 'oidc-pending' | 'webauthn-register' | 'webauthn-login' | 'two-step' | 'totp-setup';

/** How long each kind lives. */
export const CHALLENGE_LIFETIME_MS: Record<ChallengeKind, number> = {
  oidc: 10 * 60_000,
  'oidc-pending': 15 * 60_000,
  'webauthn-register': 5 * 60_000,
  'webauthn-login': 5 * 60_000,
  'two-step': 5 * 60_000,
  'totp-setup': 15 * 60_000,
};

/** Stores `data` (JSON) as a new challenge of `kind`; returns its id (a 256-bit random string). */
export async function putChallenge(
  sql: Sql,
  kind: ChallengeKind,
  data: unknown,
  userId: number | null = null,
  now = Date.now(),
): Promise<string> {
  // Expired rows of every kind leave as new ones come (bounded work: an index range on expires_at).
  await sql.query('DELETE FROM auth_challenges WHERE expires_at <= $1', [now]);
  const id = randomBytes(32).toString('base64url');
  await sql.query('INSERT INTO auth_challenges (id, kind, user_id, data, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    hashToken(id),
    kind,
    userId,
    JSON.stringify(data),
    now + CHALLENGE_LIFETIME_MS[kind],
  ]);
  return id;
}

export interface Challenge<T> {
  data: T;
  userId: number | null;
}

/**
 * Takes the live challenge `id` of `kind`: one DELETE … RETURNING, so of two requests with one id
 * only one gets it (a replayed state, a reused WebAuthn challenge get nothing). Undefined for an
 * unknown, used, expired or other-kind id.
 */
export async function takeChallenge<T>(
  sql: Sql,
  kind: ChallengeKind,
  id: string | undefined,
  now = Date.now(),
): Promise<Challenge<T> | undefined> {
  if (!id || id.length > 200) return undefined;
  const [row] = await sql.query<{ data: string; user_id: unknown; expires_at: unknown }>(
    'DELETE FROM auth_challenges WHERE id = $1 AND kind = $2 RETURNING data, user_id, expires_at',
    [hashToken(id), kind],
  );
  if (!row || Number(row.expires_at) <= now) return undefined;
  return { data: JSON.parse(row.data) as T, userId: row.user_id === null ? null : Number(row.user_id) };
}

/** Reads a live challenge without using it up (a page asking what a pending first sign-in is for). */
export async function peekChallenge<T>(
  sql: Sql,
  kind: ChallengeKind,
  id: string | undefined,
  now = Date.now(),
): Promise<Challenge<T> | undefined> {
  if (!id || id.length > 200) return undefined;
  const [row] = await sql.query<{ data: string; user_id: unknown }>(
    'SELECT data, user_id FROM auth_challenges WHERE id = $1 AND kind = $2 AND expires_at > $3',
    [hashToken(id), kind, now],
  );
  return row ? { data: JSON.parse(row.data) as T, userId: row.user_id === null ? null : Number(row.user_id) } : undefined;
}
