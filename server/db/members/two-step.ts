// Two-step verification (issue 63, RFC 6238): a member's TOTP key (users.totp_secret), the last time
// step a code was accepted for (users.totp_last_step: a code is never accepted twice), since when it
// is on (users.totp_enabled_at), and ten recovery codes, stored hashed, each usable once. The key of a
// setup in progress waits in a 'totp-setup' challenge (challenges.ts) until a code proves the app has
// it. Every "use once" here is one conditional UPDATE or DELETE, so two requests (on two instances)
// racing with one code never both pass.
import { randomInt } from 'node:crypto';
import { Secret, TOTP as Totp } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP, type TwoStepRequest } from '../../../src/shared/sign-in';
import type { Sql } from '../storage/adapter';
import { putChallenge } from './challenges';
import { hashToken } from './accounts';

/** The admin's setting (site_settings) that staff accounts must have two-step verification on. */
export const REQUIRE_TWO_STEP_STAFF = 'require_two_step_staff';

/** A key's TOTP for `email` (the label authenticator apps show, under the issuer "Insight Exchange"). */
function totpOf(secret: string, email = ''): Totp {
  return new Totp({
    issuer: TOTP.issuer,
    label: email,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.period,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step of a right `code` for `secret` at `now` (one step either side is accepted: clocks drift), or undefined. */
export function stepOf(secret: string, code: string, now = Date.now()): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Totp.counter({ period: TOTP.period, timestamp: now }) + delta;
}

/** The key grouped by four for reading aloud or typing ("ABCD EFGH …"). */
export const groupedKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** A new setup: a 160-bit key kept in a 'totp-setup' challenge of `userId` (an older setup of theirs ends). */
export async function startSetup(sql: Sql, userId: number, email: string, now = Date.now()): Promise<{ key: string; uri: string }> {
  const secret = new Secret({ size: 20 }).base32;
  await sql.query(`DELETE FROM auth_challenges WHERE kind = 'totp-setup' AND user_id = $1`, [userId]);
  await putChallenge(sql, 'totp-setup', { secret }, userId, now);
  return { key: groupedKey(secret), uri: totpOf(secret, email).toString() };
}

/** The key of `userId`'s live setup, or undefined (none started, or more than its lifetime ago). */
export async function setupSecret(sql: Sql, userId: number, now = Date.now()): Promise<string | undefined> {
  const [row] = await sql.query<{ data: string }>(
    `SELECT data FROM auth_challenges WHERE kind = 'totp-setup' AND user_id = $1 AND expires_at > $2 ORDER BY expires_at DESC LIMIT 1`,
    [userId, now],
  );
  return row ? (JSON.parse(row.data) as { secret: string }).secret : undefined;
}

/**
 * Turns two-step verification on with the setup's key once `step` (its code's) is known right: the
 * setup ends, and ten new recovery codes are returned (shown once). False when it was on already.
 */
export async function enableTwoStep(
  tx: Sql,
  userId: number,
  secret: string,
  step: number,
  now = Date.now(),
): Promise<string[] | undefined> {
  const turned = await tx.query(
    `UPDATE users SET totp_secret = $2, totp_last_step = $3, totp_enabled_at = $4 WHERE id = $1 AND totp_enabled_at IS NULL RETURNING id`,
    [userId, secret, step, now],
  );
  if (turned.length === 0) return undefined;
  await tx.query(`DELETE FROM auth_challenges WHERE kind = 'totp-setup' AND user_id = $1`, [userId]);
  return newRecoveryCodes(tx, userId);
}

/** Turns it off: the key, its last step and the recovery codes go. */
export async function disableTwoStep(tx: Sql, userId: number): Promise<void> {
  await tx.query(`UPDATE users SET totp_secret = NULL, totp_last_step = NULL, totp_enabled_at = NULL WHERE id = $1`, [userId]);
  await tx.query(`DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
}

// Recovery codes: eight characters of an alphabet without look-alikes (no 0/o, 1/l/i), in two groups
// of four: 40 bits each, and every guess is held by the sign-in limits.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as typed (any case, spaces or dashes anywhere) reduced to how it is hashed. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

/** Ten new recovery codes for `userId` (the old ones end), returned as the member reads them: "abcd-efgh". */
export async function newRecoveryCodes(tx: Sql, userId: number): Promise<string[]> {
  await tx.query(`DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    const raw = Array.from({ length: 8 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    codes.add(`${raw.slice(0, 4)}-${raw.slice(4)}`);
  }
  for (const code of codes)
    await tx.query(`INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, [userId, hashToken(normalizeRecoveryCode(code))]);
  return [...codes];
}

/** How many of `userId`'s recovery codes are still unused. */
export async function recoveryCodesLeft(sql: Sql, userId: number): Promise<number> {
  const [row] = await sql.query<{ left: unknown }>(`SELECT count(*) AS left FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL`, [
    userId,
  ]);
  return Number(row?.left ?? 0);
}

/**
 * Checks a code of `userId`, who has two-step verification on, and uses it up: a TOTP code's time
 * step must be above the last one accepted (one UPDATE moves it, so the same code, or an older
 * one, never passes twice), and a recovery code is marked used by the UPDATE that finds it unused.
 */
export async function useCode(sql: Sql, userId: number, given: TwoStepRequest, now = Date.now()): Promise<boolean> {
  if ('recoveryCode' in given) {
    const used = await sql.query(
      `UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
      [userId, hashToken(normalizeRecoveryCode(given.recoveryCode)), now],
    );
    return used.length === 1;
  }
  const [row] = await sql.query<{ totp_secret: string | null }>(`SELECT totp_secret FROM users WHERE id = $1`, [userId]);
  if (!row?.totp_secret) return false;
  const step = stepOf(row.totp_secret, given.code, now);
  if (step === undefined) return false;
  const moved = await sql.query(
    `UPDATE users SET totp_last_step = $2 WHERE id = $1 AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
    [userId, step],
  );
  return moved.length === 1;
}

/** Whether the admin requires two-step verification of staff accounts. */
export async function twoStepRequiredForStaff(sql: Sql): Promise<boolean> {
  const [row] = await sql.query<{ value: string }>(`SELECT value FROM site_settings WHERE name = $1`, [REQUIRE_TWO_STEP_STAFF]);
  return row?.value === 'true';
}

export async function setTwoStepRequiredForStaff(tx: Sql, required: boolean): Promise<void> {
  await tx.query(`INSERT INTO site_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, [
    REQUIRE_TWO_STEP_STAFF,
    String(required),
  ]);
}
