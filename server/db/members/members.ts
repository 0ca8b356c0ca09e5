// Member pages (protocol version 5, GET /api/members/:id): what every member may see of a member,
// found by the public id of src/shared/members.ts (memberId of the email; users.member_id, kept by
// createUser and filled at start-up for older accounts). Only the public side: the name, when they
// joined, and counts of what is on the forum (approved posts, visible replies on approved posts,
// likes on approved posts); never the email, nothing pending, rejected, hidden or deleted.
//
// The authors of the sample posts have no account, yet their names link to a member page like any
// other: an id no account has is looked up among the authors of what is on the forum, and such a
// member's page has no join date.
import { memberId, type MemberProfile } from '../../../src/shared/members';
import type { Sql } from '../storage/adapter';

/** The counts of a member page, for `email`. */
const COUNTS = `SELECT
  (SELECT count(*) FROM posts WHERE author_email = $1 AND status = 'approved') AS approved_posts,
  (SELECT coalesce(sum(likes), 0) FROM posts WHERE author_email = $1 AND status = 'approved') AS likes_received,
  (SELECT count(*) FROM replies r JOIN posts p ON p.id = r.post_id
    WHERE r.author_email = $1 AND r.state = 'visible' AND p.status = 'approved') AS reply_count`;

/** An author without an account (a sample post's) whose memberId is `id`, with the name on their newest visible writing. */
async function authorWithoutAccount(sql: Sql, id: string): Promise<{ email: string; name: string } | undefined> {
  const authors = await sql.query<{ email: string }>(
    `SELECT DISTINCT author_email AS email FROM posts WHERE status = 'approved'
     UNION SELECT DISTINCT r.author_email FROM replies r JOIN posts p ON p.id = r.post_id WHERE r.state = 'visible' AND p.status = 'approved'
     EXCEPT SELECT email FROM users`,
  );
  const found = authors.find((author) => memberId(author.email) === id);
  if (!found) return undefined;
  const [named] = await sql.query<{ name: string }>(
    `SELECT name FROM (
       SELECT author AS name, id AS at FROM posts WHERE author_email = $1 AND status = 'approved'
       UNION ALL SELECT r.author, r.created_at FROM replies r JOIN posts p ON p.id = r.post_id
         WHERE r.author_email = $1 AND r.state = 'visible' AND p.status = 'approved'
     ) w ORDER BY at DESC LIMIT 1`,
    [found.email],
  );
  return { email: found.email, name: named!.name };
}

/** The member page of `id`, or undefined when no member has that id. */
export async function memberProfile(sql: Sql, id: string): Promise<MemberProfile | undefined> {
  const [user] = await sql.query<{ email: string; name: string; joined: unknown }>(
    `SELECT email, name, (extract(epoch FROM created_at) * 1000)::bigint AS joined FROM users WHERE member_id = $1 ORDER BY id LIMIT 1`,
    [id],
  );
  const member = user ? { email: user.email, name: user.name, joinedAt: Number(user.joined) } : await authorWithoutAccount(sql, id);
  if (!member) return undefined;
  const [counts] = await sql.query(COUNTS, [member.email]);
  return {
    id,
    name: member.name,
    joinedAt: 'joinedAt' in member ? member.joinedAt : null,
    approvedPosts: Number(counts!.approved_posts),
    replyCount: Number(counts!.reply_count),
    likesReceived: Number(counts!.likes_received),
  };
}
