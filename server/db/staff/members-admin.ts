// What the admin's Members tab reads (GET /api/admin/members, /api/admin/members/:id): members found
// by name or email (their emails are the admins' to see), each with what the staff decided of them
// and how much they wrote; one member's recent posts (every status), replies and the flags they raised.
import type { AdminMember, AdminMemberDetail } from '../../../src/shared/protocol';
import type { Sql } from '../storage/adapter';
import { isSilencedAt } from '../../../src/shared/moderation';

type Row = Record<string, unknown>;

const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The columns of one member row (users named `u`), with their counts. */
const MEMBER_COLUMNS = `u.member_id, u.name, u.email, u.role, u.password_hash <> '' AS signs_in,
  (extract(epoch FROM u.created_at) * 1000)::bigint AS joined, u.suspended_until, u.suspend_reason, u.silenced, u.silence_reason, u.silenced_until, u.closed_at,
  (SELECT count(*) FROM posts p WHERE p.author_email = u.email) AS posts,
  (SELECT count(*) FROM replies r WHERE r.author_email = u.email AND r.state <> 'deleted') AS replies,
  (SELECT count(*) FROM flags f WHERE f.user_id = u.id) AS flags_raised`;

const toAdminMember = (row: Row): AdminMember => ({
  id: String(row.member_id),
  name: String(row.name),
  email: String(row.email),
  role: row.role === 'admin' ? 'admin' : 'user',
  joinedAt: row.signs_in === true ? Number(row.joined) : null,
  suspendedUntil: msOrNull(row.suspended_until),
  suspended: row.suspended_until !== null && row.suspended_until !== undefined && Number(row.suspended_until) > Date.now(),
  suspendReason: row.suspend_reason === null || row.suspend_reason === undefined ? null : String(row.suspend_reason),
  silenced: isSilencedAt({ silenced: row.silenced === true, silencedUntil: msOrNull(row.silenced_until) }, Date.now()),
  silenceReason: row.silence_reason === null || row.silence_reason === undefined ? null : String(row.silence_reason),
  silencedUntil: msOrNull(row.silenced_until),
  closed: row.closed_at !== null && row.closed_at !== undefined,
  posts: Number(row.posts),
  replies: Number(row.replies),
  flagsRaised: Number(row.flags_raised),
});

/** How many members one search lists. */
export const MEMBERS_LISTED = 25;

/** Members whose name or email holds `query` (any case), newest first; every member when `query` is blank. */
export async function findMembers(sql: Sql, query: string): Promise<AdminMember[]> {
  const needle = query.trim().toLowerCase();
  const rows = await sql.query(
    `SELECT ${MEMBER_COLUMNS} FROM users u
     WHERE u.member_id IS NOT NULL AND ($1 = '' OR strpos(lower(u.name), $1) > 0 OR strpos(u.email, $1) > 0)
     ORDER BY u.id DESC LIMIT $2`,
    [needle, MEMBERS_LISTED],
  );
  return rows.map(toAdminMember);
}

/** How many of a member's posts, replies and flags their detail lists (newest first). */
export const DETAIL_ITEMS = 20;

/** One member as the admin sees them, with their recent writing and flags; undefined when nobody has the id. */
export async function memberDetail(sql: Sql, id: string): Promise<AdminMemberDetail | undefined> {
  const [row] = await sql.query(`SELECT u.id AS user_id, ${MEMBER_COLUMNS} FROM users u WHERE u.member_id = $1`, [id]);
  if (!row) return undefined;
  const email = String(row.email);
  const posts = await sql.query(`SELECT id, title, status, likes, comments FROM posts WHERE author_email = $1 ORDER BY id DESC LIMIT $2`, [
    email,
    DETAIL_ITEMS,
  ]);
  const replies = await sql.query(
    `SELECT r.id, r.post_id, p.title, left(r.content, 200) AS excerpt, r.state, r.created_at
     FROM replies r JOIN posts p ON p.id = r.post_id WHERE r.author_email = $1 AND r.state <> 'deleted' ORDER BY r.created_at DESC LIMIT $2`,
    [email, DETAIL_ITEMS],
  );
  const flags = await sql.query(
    `SELECT id, post_id, reply_id, reason, text, state, created_at FROM flags WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2`,
    [row.user_id, DETAIL_ITEMS],
  );
  return {
    member: toAdminMember(row),
    posts: posts.map((post) => ({
      id: Number(post.id),
      title: String(post.title),
      status: post.status as AdminMemberDetail['posts'][number]['status'],
      likes: Number(post.likes),
      comments: Number(post.comments),
    })),
    replies: replies.map((reply) => ({
      id: String(reply.id),
      postId: Number(reply.post_id),
      postTitle: String(reply.title),
      excerpt: String(reply.excerpt),
      state: reply.state as AdminMemberDetail['replies'][number]['state'],
      createdAt: Number(reply.created_at),
    })),
    flags: flags.map((flag) => ({
      id: String(flag.id),
      postId: Number(flag.post_id),
      replyId: flag.reply_id === null ? null : String(flag.reply_id),
      reason: String(flag.reason),
      text: String(flag.text),
      state: String(flag.state),
      createdAt: Number(flag.created_at),
    })),
  };
}
