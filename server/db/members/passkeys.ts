// A member's passkeys (migration 31, issue 63): one row per WebAuthn credential, keyed by its
// credential id (base64url), with its public key (COSE, base64url), the signature counter it last
// showed and the transports the browser named. The routes (routes/api/passkeys.ts) check every
// registration and assertion with @simplewebauthn/server; this module only stores what they accepted.
import type { Passkey } from '../../../src/shared/passkeys';
import type { Sql } from '../storage/adapter';

/** A stored passkey, with what an assertion's check needs. */
export interface PasskeyRow extends Passkey {
  userId: number;
  /** The credential's public key (COSE), base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

const toPasskey = (row: Record<string, unknown>): PasskeyRow => ({
  id: String(row.id),
  userId: Number(row.user_id),
  publicKey: String(row.public_key),
  counter: Number(row.counter),
  transports: row.transports ? String(row.transports).split(',').filter(Boolean) : [],
  name: String(row.name),
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : Number(row.last_used_at),
});

/** What Profile lists of a passkey (never its key). */
export const listedPasskey = ({ id, name, createdAt, lastUsedAt }: PasskeyRow): Passkey => ({ id, name, createdAt, lastUsedAt });

/** The member's passkeys, oldest first. */
export async function listPasskeys(sql: Sql, userId: number): Promise<PasskeyRow[]> {
  const rows = await sql.query('SELECT * FROM passkeys WHERE user_id = $1 ORDER BY created_at, id', [userId]);
  return rows.map(toPasskey);
}

/** The passkey of credential id `id`, whoever owns it, or undefined. */
export async function findPasskey(sql: Sql, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await sql.query('SELECT * FROM passkeys WHERE id = $1', [id]);
  return row ? toPasskey(row) : undefined;
}

/** Stores a new passkey; undefined when its credential id is already stored (on any account: never overwritten). */
export async function addPasskey(
  sql: Sql,
  passkey: Omit<PasskeyRow, 'lastUsedAt' | 'createdAt'>,
  now = Date.now(),
): Promise<PasskeyRow | undefined> {
  const [row] = await sql.query(
    `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO NOTHING RETURNING *`,
    [passkey.id, passkey.userId, passkey.publicKey, passkey.counter, passkey.transports.join(','), passkey.name, now],
  );
  return row ? toPasskey(row) : undefined;
}

/** Removes the member's passkey `id`; the removed row, or undefined when the member has none of that id. */
export async function removePasskey(sql: Sql, userId: number, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await sql.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING *', [id, userId]);
  return row ? toPasskey(row) : undefined;
}

/**
 * Records a sign-in with passkey `id`: its new counter and when. Conditional on the counter it was
 * checked against, so of two assertions checked at once against one counter only one is recorded (a
 * cloned authenticator's replay loses); false for the other. An authenticator that keeps no counter
 * (always 0; the library accepts it) is recorded every time.
 */
export async function usePasskey(sql: Sql, id: string, checkedCounter: number, newCounter: number, now = Date.now()): Promise<boolean> {
  const rows = await sql.query('UPDATE passkeys SET counter = $3, last_used_at = $4 WHERE id = $1 AND counter = $2 RETURNING id', [
    id,
    checkedCounter,
    newCounter,
    now,
  ]);
  return rows.length === 1;
}
