// Change email (issue 59), in one transaction under the change_head lock like any operation. Posts,
// replies and deleted posts name their author by address (author_email), so every row under the old
// address moves to the new one, each live post and reply with a change number: admins' devices hold
// authors' addresses and hear of it; members see only the public id, which does not change. The
// account's `members` and preferences rows take a number too, so the member's own devices learn the
// new address on their next pull. Sessions are keyed by the account, not the address: they go on.
import type { Sql } from '../storage/adapter';
import { CHANGES_CHANNEL } from '../ops/answers';
import { ChangeNumber } from '../ops/sql-store';
import { findUser, type UserRow } from './accounts';

/** The address is some other account's now (taken after the link was sent). */
export class EmailTaken extends Error {}

type Numbered = (text: string, params: unknown[]) => Promise<unknown>;

/**
 * Every live post and reply written under `from` now under `to`, each with a change number (through
 * `numbered`, which puts the first number before the params: $1): Change email, and Delete my
 * account's kept content. Deleted posts are the caller's (they take no number).
 */
export async function moveAuthorship(numbered: Numbered, from: string, to: string): Promise<void> {
  await numbered(
    `UPDATE posts x SET author_email = $3, seq = $1 + n.rank
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS rank FROM posts WHERE author_email = $2) n WHERE x.id = n.id RETURNING x.id`,
    [from, to],
  );
  await numbered(
    `UPDATE replies x SET author_email = $3, seq = $1 + n.rank
     FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rank FROM replies WHERE author_email = $2) n WHERE x.id = n.id RETURNING x.id`,
    [from, to],
  );
}

/** Moves `user` (as read in `tx`) to `newEmail`, confirmed (its link came there); throws EmailTaken. */
export async function changeEmail(tx: Sql, user: UserRow, newEmail: string): Promise<void> {
  const [head] = await tx.query('SELECT seq FROM change_head FOR UPDATE');
  if (await findUser(tx, newEmail)) throw new EmailTaken();
  const change = new ChangeNumber(Number(head!.seq) + 1);
  const numbered = async (text: string, params: unknown[]) => {
    const rows = await tx.query(text, [change.last, ...params]);
    change.advance(rows.length);
  };
  await moveAuthorship(numbered, user.email, newEmail);
  await tx.query('UPDATE deleted_posts SET author_email = $2 WHERE author_email = $1', [user.email, newEmail]);
  // Links sent to the old address (a reset, a confirmation) stop working; so does any other change.
  await tx.query(`UPDATE account_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL AND purpose <> 'unsubscribe'`, [
    user.id,
    Date.now(),
  ]);
  await numbered('UPDATE users SET email = $3, email_verified_at = $4, name_seq = $1 + 1, prefs_seq = $1 + 1 WHERE id = $2 RETURNING id', [
    user.id,
    newEmail,
    Date.now(),
  ]);
  await tx.query('WITH head AS (UPDATE change_head SET seq = $1 RETURNING seq) SELECT pg_notify($2, seq::text) FROM head', [
    change.last,
    CHANGES_CHANNEL,
  ]);
}
