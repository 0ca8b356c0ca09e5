// Authors as every viewer sees them: a post's or reply's author by their account as it is now (the
// name after a rename, the role for the Admin badge, the public id for their page), never by the
// copy stored with what they wrote. A rename is then one change (the member's row), not one per post;
// and the email stays with its owner and the admins (toWirePost and toWireReply blank it for others).
import type { Actor } from '../../../src/shared/post-rules';
import type { Sql } from '../storage/adapter';
import { mayReadEmail } from '../../../src/shared/visibility';

type Row = Record<string, unknown>;

/**
 * `rows` (posts, deleted posts or replies, with their `author_email`) with `author`, `author_role`
 * and `author_id` as their author's account says now (one query, whatever their number); a row whose
 * author has no account keeps its stored name and role, and an empty id. Changes the rows in place.
 */
export async function withAuthors<R extends Row>(sql: Sql, rows: R[]): Promise<R[]> {
  const emails = [...new Set(rows.map((row) => String(row.author_email)))];
  if (emails.length === 0) return rows;
  const accounts = await sql.query<{ email: string; member_id: string | null; name: string; role: string }>(
    'SELECT email, member_id, name, role FROM users WHERE email = ANY($1::text[])',
    [emails],
  );
  const byEmail = new Map(accounts.map((account) => [account.email, account]));
  for (const row of rows) {
    const account = byEmail.get(String(row.author_email));
    (row as Row).author_id = account?.member_id ?? '';
    if (!account) continue;
    (row as Row).author = account.name;
    (row as Row).author_role = account.role;
  }
  return rows;
}

/** True when `viewer` may read the email of what `authorEmail` wrote: their own, or any for admins (mayReadEmail). */
export const readsEmail = (viewer: Actor | undefined, authorEmail: unknown): boolean => mayReadEmail(authorEmail, viewer ?? null);

/**
 * The author fields of a post or a reply on the wire, as `viewerEmail` (an admin when
 * `viewerIsAdmin`) may read them: the email only to its author and admins.
 */
export function wireAuthor(
  row: { author?: unknown; author_email?: unknown; author_role?: unknown; author_id?: unknown },
  viewerIsAdmin: boolean,
  viewerEmail?: string,
): { author: string; authorEmail: string; authorRole: string; authorId: string } {
  const viewer: Actor | undefined = viewerEmail === undefined ? undefined : { email: viewerEmail, role: viewerIsAdmin ? 'admin' : 'user' };
  return {
    author: String(row.author),
    authorEmail: readsEmail(viewer, row.author_email) ? String(row.author_email) : '',
    authorRole: String(row.author_role),
    authorId: String(row.author_id ?? ''),
  };
}
