// The forum a page at a time (issue 44): a device holds a window (the newest approved posts, its
// member's own and saved posts, to admins what waits for moderation) and asks the server for the
// rest when the member goes there: an older page, a category, one post. Every page comes with all
// the replies of its posts and the change head read before its rows: every change at or below it
// is in them, and the pull from there brings the rest (a row read later is only ever newer).
// The newest pages leave out what the member muted (following, issue 62: mutedOut); a category's
// page names its category, so only the posts muted themselves leave it.
import { listedPostSql, postVisibleSql, sqlViewer } from '../../../src/shared/visibility';
import type { ForumPage } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import { withAuthors } from '../members/authors';
import type { Sql } from '../storage/adapter';
import { readablePostColumns, toWirePost, type PostRow } from '../posts/post-rows';
import { withPolls } from '../posts/poll-rows';
import { readableReplyColumns, toWireReply, type ReplyRow } from '../replies/reply-rows';
import { changeHead } from '../sync/changes';
import { notMutedSql } from '../follows/following-sql';

export interface PageRequest {
  part: 'newest' | 'kept';
  /** Only posts older (a smaller id) than this one. */
  before?: number;
  limit: number;
  /** Only this category's posts (newest only). */
  category?: string;
}

// Parameters: $1 admin, $2 email, $3 before (the largest id when none), $4 limit + 1, $5 the viewer's
// id, then for a category $6 the category. Each condition is one an index answers in
// any plan (a prepared statement's generic plan too): newest reads the primary key backwards
// (approved posts only), a category posts_category_approved, kept the member's own posts
// (posts_author_seq), their saved posts, and to admins the posts not approved (posts_unapproved).
const NEWEST = `SELECT ${readablePostColumns('y', '$1', '$2')} FROM posts y
  WHERE ${listedPostSql(sqlViewer('$1', '$2'), 'y')} AND y.id < $3 AND ${notMutedSql('$5', 'y', false)} ORDER BY y.id DESC LIMIT $4`;
const CATEGORY = `SELECT ${readablePostColumns('y', '$1', '$2')} FROM posts y
  WHERE ${listedPostSql(sqlViewer('$1', '$2'), 'y')} AND y.category = $6 AND y.id < $3 AND ${notMutedSql('$5', 'y', true)}
  ORDER BY y.id DESC LIMIT $4`;
const KEPT = `SELECT ${readablePostColumns('y', '$1', '$2')} FROM posts y
  WHERE y.id IN (
      SELECT id FROM posts WHERE author_email = $2
      UNION SELECT post_id FROM saved_posts WHERE user_id = $5 AND saved
      UNION SELECT id FROM posts WHERE $1::boolean AND status <> 'approved')
    AND ${postVisibleSql(sqlViewer('$1', '$2'), 'y')} AND y.id < $3
  ORDER BY y.id DESC LIMIT $4`;
const ONE = `SELECT ${readablePostColumns('y', '$1', '$2')} FROM posts y WHERE y.id = $3 AND ${postVisibleSql(sqlViewer('$1', '$2'), 'y')}`;
const REPLIES = `SELECT ${readableReplyColumns('x', '$1')} FROM replies x WHERE x.post_id = ANY($2::bigint[]) ORDER BY x.seq, x.created_at`;

/** The posts as the viewer reads them, with every reply of each (both as a pull sends them). */
async function withReplies(sql: Sql, viewer: UserRow, rows: PostRow[]): Promise<Pick<ForumPage, 'posts' | 'replies'>> {
  const admin = viewer.role === 'admin';
  if (rows.length === 0) return { posts: [], replies: [] };
  await withPolls(sql, rows, viewer.email);
  const posts = (await withAuthors(sql, rows)).map((row) => toWirePost(row, admin, viewer.email));
  const replyRows = await sql.query<ReplyRow>(REPLIES, [admin, posts.map((post) => post.id)]);
  const replies = (await withAuthors(sql, replyRows)).map((reply) => toWireReply(reply, admin, viewer.email));
  return { posts, replies };
}

/** A page of the forum that `viewer` may see, newest first (PageRequest). */
export async function readForumPage(sql: Sql, viewer: UserRow, request: PageRequest): Promise<ForumPage> {
  const cursor = await changeHead(sql);
  const params = [viewer.role === 'admin', viewer.email, request.before ?? Number.MAX_SAFE_INTEGER, request.limit + 1, viewer.id];
  const rows =
    request.part === 'kept'
      ? await sql.query<PostRow>(KEPT, params)
      : request.category !== undefined
        ? await sql.query<PostRow>(CATEGORY, [...params, request.category])
        : await sql.query<PostRow>(NEWEST, params);
  const more = rows.length > request.limit;
  return { ...(await withReplies(sql, viewer, more ? rows.slice(0, request.limit) : rows)), cursor, more };
}

/** One post that `viewer` may see, with its replies; undefined when there is none (deleted, or not theirs to see). */
export async function readForumPost(sql: Sql, viewer: UserRow, id: number): Promise<ForumPage | undefined> {
  const cursor = await changeHead(sql);
  const rows = await sql.query<PostRow>(ONE, [viewer.role === 'admin', viewer.email, id]);
  if (rows.length === 0) return undefined;
  return { ...(await withReplies(sql, viewer, rows)), cursor, more: false };
}
