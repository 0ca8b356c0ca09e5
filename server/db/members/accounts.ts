// Accounts and sessions: the users table (scrypt hashes) and sessions stored by the SHA-256 of
// their token, so a leaked database holds no usable session. Roles come from this table only.
// Every revoked session is announced on SESSIONS_CHANNEL (payload: its token's hash), so each
// instance closes that session's live streams (routes/api/events.ts).
import { createHash, randomBytes } from 'node:crypto';
import { memberId } from '../../../src/shared/members';
import type { User } from '../../../src/shared/protocol';
import type { Sql } from '../storage/adapter';

export interface UserRow extends User {
  id: number;
  passwordHash: string;
}

export const SESSION_DAYS = 30;

/** The channel on which each revoked session is announced (payload: the SHA-256 of its token). */
export const SESSIONS_CHANNEL = 'ie_sessions';

/** The SHA-256 of a session token: the sessions table's key, and the live streams' key for it. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Deletes the sessions `where` selects and announces each one (NOTIFY is delivered after the commit). */
const REVOKE = (where: string) =>
  `WITH gone AS (DELETE FROM sessions WHERE ${where} RETURNING token_hash) SELECT pg_notify('${SESSIONS_CHANNEL}', token_hash) FROM gone`;

const toUser = (row: Record<string, unknown>): UserRow => ({
  id: Number(row.id),
  email: String(row.email),
  name: String(row.name),
  role: row.role === 'admin' ? 'admin' : 'user',
  passwordHash: String(row.password_hash),
});

/** The account of `email` (already normalized), or undefined. */
export async function findUser(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [row] = await sql.query('SELECT * FROM users WHERE email = $1', [email]);
  return row ? toUser(row) : undefined;
}

/** Creates an account; returns undefined when the email was taken meanwhile (never overwrites). */
export async function createUser(sql: Sql, user: Omit<UserRow, 'id'>): Promise<UserRow | undefined> {
  const [row] = await sql.query(
    `INSERT INTO users (email, name, role, password_hash, member_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO NOTHING RETURNING *`,
    [user.email, user.name, user.role, user.passwordHash, memberId(user.email)],
  );
  return row ? toUser(row) : undefined;
}

/** Gives the accounts made before migration 8 their member_id (memberId of their email); returns how many. */
export async function fillMemberIds(sql: Sql): Promise<number> {
  const rows = await sql.query<{ id: unknown; email: string }>('SELECT id, email FROM users WHERE member_id IS NULL');
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => ({ id: String(row.id), memberId: memberId(row.email) }));
  await sql.query(
    `UPDATE users u SET member_id = e->>'memberId' FROM jsonb_array_elements($1::text::jsonb) e WHERE u.id = (e->>'id')::bigint`,
    [JSON.stringify(ids)],
  );
  return rows.length;
}

/** Sets a password and revokes every session of that account. */
export async function setPassword(sql: Sql, userId: number, passwordHash: string): Promise<void> {
  await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  await sql.query(REVOKE('user_id = $1'), [userId]);
}

/**
 * Replaces a hash made with an older cost by `newHash` of the same password, keeping the sessions;
 * only while the stored hash is still `oldHash` (a password changed meanwhile is never overwritten).
 */
export async function upgradePasswordHash(sql: Sql, userId: number, oldHash: string, newHash: string): Promise<void> {
  await sql.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, oldHash, newHash]);
}

/** Opens a session for `userId`; returns the token for the cookie (only its hash is stored). */
export async function createSession(sql: Sql, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '${SESSION_DAYS} days')`, [
    hashToken(token),
    userId,
  ]);
  return token;
}

/** The user of a live session token, or undefined (unknown, revoked or expired). */
export async function sessionUser(sql: Sql, token: string): Promise<UserRow | undefined> {
  const [row] = await sql.query(
    `SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [hashToken(token)],
  );
  return row ? toUser(row) : undefined;
}

/** Revokes one session; a no-op for an unknown token. */
export async function deleteSession(sql: Sql, token: string): Promise<void> {
  await sql.query(REVOKE('token_hash = $1'), [hashToken(token)]);
}

/**
 * The member as they are now, inside a write transaction (after its change_head lock, which a
 * rename takes too): the session's copy was read before the push, and a rename earlier in the
 * same push (or in another one meanwhile) must give what they write next its new name.
 */
export async function currentAuthor(tx: Sql, user: UserRow): Promise<UserRow> {
  const [row] = await tx.query('SELECT name FROM users WHERE id = $1', [user.id]);
  return row ? { ...user, name: String(row.name) } : user;
}
