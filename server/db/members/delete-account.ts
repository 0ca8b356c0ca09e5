// "Delete my account" (issue 41, item 6), in one transaction under the change_head lock like any
// operation: the member's posts and replies either leave the forum exactly as Delete spammer removes
// them (SqlStore.settleFlagsOfMember, removeMemberContent), or stay under "Deleted member"; then the private data goes
// (notifications, saved posts, links, emails, the address and the password) and every session ends,
// each told `account_deleted`. The account row stays, closed and nameless (what they wrote, and the
// staff log, point at it), with an address that is no one's. Every changed row takes a change number,
// so every device hears of it.
import type { Database } from '../storage/adapter';
import { CHANGES_CHANNEL } from '../ops/answers';
import { ChangeNumber, SqlStore } from '../ops/sql-store';
import { SESSIONS_CHANNEL, type UserRow } from './accounts';
import { moveAuthorship } from './change-email';

/** The name what a deleted member wrote shows under. */
export const DELETED_MEMBER = 'Deleted member';

export async function deleteAccount(db: Database, user: UserRow, keepContent: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const [head] = await tx.query('SELECT seq, last_post_id FROM change_head FOR UPDATE');
    const change = new ChangeNumber(Number(head!.seq) + 1);
    const numbered = async (text: string, params: unknown[]) => {
      const rows = await tx.query(text, [change.last, ...params]);
      change.advance(rows.length);
      return rows;
    };
    const anonymous = `deleted-${user.memberId}@deleted.invalid`;
    if (!keepContent) {
      const store = new SqlStore(tx, user, change, Number(head!.last_post_id));
      await store.settleFlagsOfMember(user.memberId, 'resolved');
      await store.removeMemberContent(user.memberId, user);
    } else {
      // Kept: each post and reply under the anonymous address, each with a change number (admins'
      // devices hold authors' addresses; members see the name from the account row below).
      await moveAuthorship(numbered, user.email, anonymous);
    }
    await tx.query('UPDATE deleted_posts SET author_email = $2 WHERE author_email = $1', [user.email, anonymous]);
    for (const table of ['notifications', 'saved_posts', 'account_tokens', 'mail_outbox', 'attachment_uploads'])
      await tx.query(`DELETE FROM ${table} WHERE user_id = $1`, [user.id]);
    // The account row: nameless, with no address, no password, no provider account, closed. One change number: the
    // `members` row every device names their writing by.
    await numbered(
      `UPDATE users SET email = $3, name = $4, name_key = $5, password_hash = '', closed_at = $6, silenced = true, email_pref = 'never',
         email_verified_at = NULL, suspend_reason = NULL, oidc_subject = NULL, oidc_refresh_token = NULL, name_seq = $1 + 1, prefs_seq = $1 + 1 WHERE id = $2 RETURNING id`,
      [user.id, anonymous, DELETED_MEMBER, `deleted member#${user.id}`, Date.now()],
    );
    await tx.query(
      `WITH ended AS (UPDATE sessions SET ended_reason = 'deleted' WHERE user_id = $1 AND (ended_reason IS NULL OR ended_reason = 'closed') RETURNING token_hash)
       SELECT pg_notify('${SESSIONS_CHANNEL}', token_hash) FROM ended`,
      [user.id],
    );
    if (change.taken)
      await tx.query('WITH head AS (UPDATE change_head SET seq = $1 RETURNING seq) SELECT pg_notify($2, seq::text) FROM head', [
        change.last,
        CHANGES_CHANNEL,
      ]);
  });
}
