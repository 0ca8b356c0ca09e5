// Accounts and sessions: the users table (scrypt hashes) and sessions stored by the SHA-256 of
// their token, so a leaked database holds no usable session. Roles come from this table only.
// Every revoked session is announced on SESSIONS_CHANNEL (payload: its token's hash), so each
// instance closes that session's live streams (routes/api/events.ts).
import { createHash, randomBytes } from 'node:crypto';
import { nameKey } from '../../../src/shared/names';
import type { User } from '../../../src/shared/protocol';
import type { Sql } from '../storage/adapter';
import type { EmailPref } from '../../../src/shared/account';

export interface UserRow extends User {
  id: number;
  /** The public id (users.member_id): `authorId` on the wire, the member page's id. */
  memberId: string;
  passwordHash: string;
  /** When the account was made (ms): a member's first day has stricter limits. */
  createdAt?: number;
  /** What the staff decided (migration 11): suspended until (ms) and why, silenced, closed (ms). */
  suspendedUntil?: number | null;
  suspendReason?: string | null;
  silenced?: boolean;
  /** Migration 20: why the member is silenced, and until when (ms; null: no end date). */
  silenceReason?: string | null;
  silencedUntil?: number | null;
  closedAt?: number | null;
  /** Migration 13: when the address was confirmed (null: not yet), and how the member wants email. */
  emailVerifiedAt?: number | null;
  emailPref?: EmailPref;
  /** Migration 31 (issue 63): the provider account linked ("issuer subject"), when it was last checked, and since when two-step verification is on. */
  oidcSubject?: string | null;
  oidcCheckedAt?: number | null;
  totpEnabledAt?: number | null;
}

/** A new public id (users.member_id, the `/members/:id` and `authorId` of a member): 16 random hex digits, unrelated to the email. */
export const newMemberId = (): string => randomBytes(8).toString('hex');

export const SESSION_DAYS = 30;

/** The channel on which each revoked session is announced (payload: the SHA-256 of its token). */
export const SESSIONS_CHANNEL = 'ie_sessions';

/** The SHA-256 of a session token: the sessions table's key, and the live streams' key for it. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Deletes the sessions `where` selects and announces each one (NOTIFY is delivered after the commit). */
const REVOKE = (where: string) =>
  `WITH gone AS (DELETE FROM sessions WHERE ${where} RETURNING token_hash) SELECT pg_notify('${SESSIONS_CHANNEL}', token_hash) FROM gone`;

const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const toUser = (row: Record<string, unknown>): UserRow => ({
  id: Number(row.id),
  memberId: String(row.member_id ?? ''),
  email: String(row.email),
  name: String(row.name),
  role: row.role === 'admin' ? 'admin' : 'user',
  passwordHash: String(row.password_hash),
  createdAt: row.created_at instanceof Date ? row.created_at.getTime() : row.created_at ? Date.parse(String(row.created_at)) : undefined,
  suspendedUntil: msOrNull(row.suspended_until),
  suspendReason: row.suspend_reason === null || row.suspend_reason === undefined ? null : String(row.suspend_reason),
  silenced: row.silenced === true,
  silenceReason: row.silence_reason === null || row.silence_reason === undefined ? null : String(row.silence_reason),
  silencedUntil: msOrNull(row.silenced_until),
  closedAt: msOrNull(row.closed_at),
  emailVerifiedAt: msOrNull(row.email_verified_at),
  emailPref: row.email_pref === 'never' || row.email_pref === 'digest' ? row.email_pref : 'away',
  oidcSubject: row.oidc_subject === null || row.oidc_subject === undefined ? null : String(row.oidc_subject),
  oidcCheckedAt: msOrNull(row.oidc_checked_at),
  totpEnabledAt: msOrNull(row.totp_enabled_at),
});

/** The account of `email` (already normalized), or undefined. */
export async function findUser(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [row] = await sql.query('SELECT * FROM users WHERE email = $1', [email]);
  return row ? toUser(row) : undefined;
}

/** The account of users.id `id`, or undefined. */
export async function findUserById(sql: Sql, id: number): Promise<UserRow | undefined> {
  const [row] = await sql.query('SELECT * FROM users WHERE id = $1', [id]);
  return row ? toUser(row) : undefined;
}

/**
 * Creates an account with a new public id and its name's key; returns undefined when the email was
 * taken meanwhile (never overwrites). Throws NameTaken when another member has a name of the same
 * key (names.ts), unless `shareName` (the admin account made at start-up keeps "Admin" even where an
 * older member took it: its key is then its own, `<key>#<email>`).
 */
export async function createUser(sql: Sql, user: Omit<UserRow, 'id' | 'memberId'>, shareName = false): Promise<UserRow | undefined> {
  let key = nameKey(user.name);
  if (await nameTaken(sql, user.name)) {
    if (!shareName) throw new NameTaken();
    key = `${key}#${user.email}`;
  }
  try {
    const [row] = await sql.query(
      `INSERT INTO users (email, name, role, password_hash, member_id, name_key) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (email) DO NOTHING RETURNING *`,
      [user.email, user.name, user.role, user.passwordHash, newMemberId(), key],
    );
    return row ? toUser(row) : undefined;
  } catch (error) {
    // Another sign-up took the name between the check and the insert.
    if ((error as { constraint?: string }).constraint === 'users_name_key') throw new NameTaken();
    throw error;
  }
}

/** Another member has a name of the same key (names.ts). */
export class NameTaken extends Error {
  override name = 'NameTaken';
}

/** True when a member other than `exceptId` has a name of `name`'s key (names.ts). */
export async function nameTaken(sql: Sql, name: string, exceptId = 0): Promise<boolean> {
  const [row] = await sql.query('SELECT 1 FROM users WHERE name_key = $1 AND id <> $2', [nameKey(name), exceptId]);
  return row !== undefined;
}

/**
 * Start-up upkeep of the users table (under the start-up lock): every account a random public id
 * (those made before migration 10 had none), every name its key (a name that shares its key with an
 * older account's keeps it, under a key of its own: `<key>#<id>`), and every author of a post or
 * reply an account, for those written without one (the sample posts' authors): an account nobody
 * can sign in to (no password hash), so their names are taken and their pages have an id. Returns
 * how many rows it changed.
 */
export async function fillMembers(sql: Sql): Promise<number> {
  const authors = await sql.query<{ email: string; name: string; role: string }>(
    `SELECT DISTINCT ON (email) email, name, role FROM (
       SELECT author_email AS email, author AS name, author_role AS role, id AS at FROM posts
       UNION ALL SELECT author_email, author, author_role, id FROM deleted_posts
       UNION ALL SELECT author_email, author, author_role, created_at FROM replies
     ) w WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.email = w.email) ORDER BY email, at DESC`,
  );
  for (const author of authors) {
    await sql.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, $3, '') ON CONFLICT (email) DO NOTHING`, [
      author.email,
      author.name,
      author.role === 'admin' ? 'admin' : 'user',
    ]);
  }
  const unnamed = await sql.query<{ id: unknown; name: string; member_id: string | null; name_key: string | null }>(
    'SELECT id, name, member_id, name_key FROM users WHERE member_id IS NULL OR name_key IS NULL ORDER BY id',
  );
  for (const user of unnamed) {
    const key =
      user.name_key ?? ((await nameTaken(sql, user.name, Number(user.id))) ? `${nameKey(user.name)}#${user.id}` : nameKey(user.name));
    await sql.query('UPDATE users SET member_id = coalesce(member_id, $2), name_key = $3 WHERE id = $1', [user.id, newMemberId(), key]);
  }
  return authors.length + unnamed.length;
}

/** Why a session ended while its device may still carry it (the device is told: plugins/session.ts). */
export type EndedReason = 'suspended' | 'closed' | 'password_changed' | 'revoked' | 'deleted' | 'sso_removed';

/**
 * Ends every live session of the account `userId` for `reason` (a suspension, a closing, a new
 * password), but the one of `exceptTokenHash`, and announces each one, so every instance closes its
 * live streams: the rows stay, marked, so a device that carries one is told why (plugins/session.ts).
 * Returns how many ended.
 */
export async function endSessions(sql: Sql, userId: number, reason: EndedReason, exceptTokenHash = ''): Promise<number> {
  const rows = await sql.query(
    `WITH ended AS (UPDATE sessions SET ended_reason = $2 WHERE user_id = $1 AND ended_reason IS NULL AND token_hash <> $3 RETURNING token_hash)
     SELECT pg_notify('${SESSIONS_CHANNEL}', token_hash) FROM ended`,
    [userId, reason, exceptTokenHash],
  );
  return rows.length;
}

/** Ends the member's one session of public id `publicId` ("Sign out" of a device on Profile); false when it is not theirs or not live. */
export async function endSessionById(sql: Sql, userId: number, publicId: string): Promise<boolean> {
  const rows = await sql.query(
    `WITH ended AS (UPDATE sessions SET ended_reason = 'revoked'
       WHERE user_id = $1 AND public_id = $2 AND ended_reason IS NULL AND expires_at > now() RETURNING token_hash)
     SELECT pg_notify('${SESSIONS_CHANNEL}', token_hash) FROM ended`,
    [userId, publicId],
  );
  return rows.length > 0;
}

/**
 * Sets a password and ends every session of that account but `keepTokenHash`'s (a change made on
 * Profile keeps the device it was made on; a reset link or the shell keeps none), each told why,
 * and cancels a Change email not yet confirmed.
 */
export async function setPassword(sql: Sql, userId: number, passwordHash: string, keepTokenHash = ''): Promise<void> {
  await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  await endSessions(sql, userId, 'password_changed', keepTokenHash);
  // A Change email asked for with the old password is cancelled: whoever knew it may have asked.
  await sql.query(`UPDATE account_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'email_change' AND used_at IS NULL`, [
    userId,
    Date.now(),
  ]);
}

/**
 * Replaces a hash made with an older cost by `newHash` of the same password, keeping the sessions;
 * only while the stored hash is still `oldHash` (a password changed meanwhile is never overwritten).
 */
export async function upgradePasswordHash(sql: Sql, userId: number, oldHash: string, newHash: string): Promise<void> {
  await sql.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, oldHash, newHash]);
}

/** Opens a session for `userId` from a browser saying `userAgent`; returns the token for the cookie (only its hash is stored). */
export async function createSession(sql: Sql, userId: number, userAgent = ''): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at, public_id, user_agent, last_seen_at)
     VALUES ($1, $2, now() + interval '${SESSION_DAYS} days', $3, $4, $5)`,
    [hashToken(token), userId, randomBytes(12).toString('base64url'), userAgent.slice(0, 512), Date.now()],
  );
  return token;
}

/** A live session as Profile's "Signed-in devices" lists it. */
export interface SessionRow {
  id: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  tokenHash: string;
}

/** The member's live sessions, the most recently seen first. */
export async function listSessions(sql: Sql, userId: number): Promise<SessionRow[]> {
  const rows = await sql.query(
    `SELECT public_id, user_agent, created_at, last_seen_at, token_hash FROM sessions
     WHERE user_id = $1 AND ended_reason IS NULL AND expires_at > now() ORDER BY last_seen_at DESC NULLS LAST, created_at DESC`,
    [userId],
  );
  return rows.map((row) => {
    const createdAt = row.created_at instanceof Date ? row.created_at.getTime() : Date.parse(String(row.created_at));
    return {
      id: String(row.public_id),
      userAgent: String(row.user_agent ?? ''),
      createdAt,
      lastSeenAt: row.last_seen_at === null || row.last_seen_at === undefined ? createdAt : Number(row.last_seen_at),
      tokenHash: String(row.token_hash),
    };
  });
}

/** Notes that the session of `token` was used now: written at most once a minute per session. */
export async function touchSession(sql: Sql, token: string, now = Date.now()): Promise<void> {
  await sql.query('UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1 AND (last_seen_at IS NULL OR last_seen_at < $3)', [
    hashToken(token),
    now,
    now - 60_000,
  ]);
}

/**
 * The user of a session token that has not expired, or undefined (unknown, revoked or expired), with
 * `endedReason` when a suspension or a closing ended it (plugins/session.ts says why).
 */
export async function sessionUser(sql: Sql, token: string): Promise<(UserRow & { endedReason: string | null }) | undefined> {
  const [row] = await sql.query(
    `SELECT u.*, s.ended_reason FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [hashToken(token)],
  );
  return row
    ? { ...toUser(row), endedReason: row.ended_reason === null || row.ended_reason === undefined ? null : String(row.ended_reason) }
    : undefined;
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
