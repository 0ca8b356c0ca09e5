// Member pages (protocol version 5, GET /api/members/:id): what every member may see of a member,
// found by their random public id (users.member_id; the authors of the sample posts have accounts
// nobody can sign in to, made at start-up, so their pages work alike). Only the public side: the
// name, the role (the Admin badge), when they joined, and counts of what is on the forum (approved
// posts, visible replies on approved posts, likes on approved posts); never the email, nothing
// pending, rejected, hidden or deleted. A member with nothing on the forum answers as an id nobody
// has (the page would only tell that the account exists), except to themselves, unless they can be
// mentioned (findableMember: a confirmed address; issue 59).
import type { MemberProfile } from '../../../src/shared/members';
import type { Sql } from '../storage/adapter';
import { publicPostSql, publicReplySql } from '../../../src/shared/visibility';

/**
 * Who others may find by name (the editor's @ mentions) and whose page they may open, as SQL over
 * `users` (issue 59, item 7): an open account someone signs in to, not suspended now, that confirmed
 * its address (names are public; a new colleague can be mentioned before they write) or has
 * something on the forum. `now` names the parameter holding the time (ms).
 */
export const findableMember = (now: string) => `users.member_id IS NOT NULL AND users.closed_at IS NULL AND users.password_hash <> ''
  AND (users.suspended_until IS NULL OR users.suspended_until <= ${now})
  AND (users.email_verified_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM posts p WHERE p.author_email = users.email AND ${publicPostSql('p')})
    OR EXISTS (SELECT 1 FROM replies r JOIN posts p ON p.id = r.post_id
      WHERE r.author_email = users.email AND ${publicReplySql('r', 'p')}))`;

/** The counts of a member page, for `email`: public facts only (src/shared/visibility.ts). */
const COUNTS = `SELECT
  (SELECT count(*) FROM posts WHERE author_email = $1 AND ${publicPostSql()}) AS approved_posts,
  (SELECT coalesce(sum(likes), 0) FROM posts WHERE author_email = $1 AND ${publicPostSql()}) AS likes_received,
  (SELECT count(*) FROM replies r JOIN posts p ON p.id = r.post_id
    WHERE r.author_email = $1 AND ${publicReplySql('r', 'p')}) AS reply_count`;

/** The member page of `id` as `viewerId` (a users.id) may see it, or undefined (no such member, or nothing of theirs on the forum). */
export async function memberProfile(sql: Sql, id: string, viewerId?: number): Promise<MemberProfile | undefined> {
  const [user] = await sql.query<{
    id: unknown;
    email: string;
    name: string;
    role: string;
    signs_in: boolean;
    joined: unknown;
    findable: boolean;
  }>(
    `SELECT id, email, name, role, password_hash <> '' AS signs_in, (extract(epoch FROM created_at) * 1000)::bigint AS joined,
       (${findableMember('$2')}) AS findable
     FROM users WHERE member_id = $1`,
    [id, Date.now()],
  );
  if (!user) return undefined;
  const [counts] = await sql.query(COUNTS, [user.email]);
  const profile: MemberProfile = {
    id,
    name: user.name,
    role: user.role === 'admin' ? 'admin' : 'user',
    // An author made at start-up (a sample post's) never joined: no date.
    joinedAt: user.signs_in ? Number(user.joined) : null,
    approvedPosts: Number(counts!.approved_posts),
    replyCount: Number(counts!.reply_count),
    likesReceived: Number(counts!.likes_received),
  };
  // A confirmed member who has written nothing yet can be mentioned: their page answers too.
  const shown = profile.approvedPosts > 0 || profile.replyCount > 0 || user.findable === true || Number(user.id) === viewerId;
  return shown ? profile : undefined;
}
