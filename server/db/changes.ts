// Pull by cursor: the posts (and, from protocol version 2, the replies; from 3, the ids of deleted
// posts) a viewer may see whose change number is above the cursor, in pages. The page stops at the
// head read first, and every change at or below the head has committed (change_head's row lock
// orders commits), so a cursor handed out never skips a late commit. Several rows can share one
// change number (a reply and its post; the posts of one group commit of likes): a page never ends
// between two of them.
import type { PullResponse, WirePost, WireReply } from '../../src/shared/protocol';
import type { Sql } from './adapter';
import type { UserRow } from './accounts';
import { readablePostColumns, toWirePost, visibleTo, type PostRow } from './post-rows';
import { readableReplyColumns, toWireReply, type ReplyRow } from './reply-rows';

/** The newest change number. */
export async function changeHead(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ seq: unknown }>('SELECT seq FROM change_head');
  return Number(row?.seq ?? 0);
}

/** A page of a version-1 pull: posts only. */
export type PostsPage = Omit<PullResponse, 'replies' | 'removed' | 'notifications' | 'flags'>;
/** A page of a version-2 pull: posts and replies, no removed posts. */
export type ConversationsPage = Omit<PullResponse, 'removed' | 'notifications' | 'flags'>;
/** A page of a version-3 pull: posts, replies and removed posts. */
export type WritingPage = Omit<PullResponse, 'notifications' | 'flags'>;

/** What a page carries besides posts, by protocol version: replies from 2, removed posts from 3. */
interface Shape {
  replies: boolean;
  removed: boolean;
}

// Parameters: $1 after, $2 head, $3 admin, $4 email, $5 limit + 1.
const POSTS = `SELECT ${readablePostColumns('posts', '$3')} FROM posts
  WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')} ORDER BY seq LIMIT $5`;
const REPLIES = `SELECT ${readableReplyColumns('r', '$3')} FROM replies r JOIN posts p ON p.id = r.post_id
  WHERE r.seq > $1 AND r.seq <= $2 AND ${visibleTo('$3', '$4', 'p')} ORDER BY r.seq LIMIT $5`;
// Tombstones go to every member, whoever could see the post: an id and a number, never its content.
// A deleted post's tombstone goes to whoever could see it: every member for an approved post, its
// author and the admins for a pending or rejected one (its id and time say nothing to the others).
const REMOVED = `SELECT id, seq FROM deleted_posts WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')} ORDER BY seq LIMIT $5`;
const NONE = `SELECT NULL::bigint AS seq WHERE false`;

/**
 * One statement for a page (its answer one JSON text: one value to hand over instead of one per
 * column and row; PGlite copies every value out of WebAssembly one by one). `p`, `r` and `d` hold
 * the first limit + 1 rows of each kind (posts, replies, removed posts), `s` the first limit + 1
 * change numbers of all of them merged. The page ends at `bound`:
 * - the head, when at most `limit` rows follow the cursor;
 * - else the change number of the page's last row, when the next row has another one;
 * - else the number before it (the page's last rows share their number with the next one: they
 *   wait for the next page, which starts above the cursor and would otherwise skip the rest);
 * - else, when every row of the page shares that one number, that number: all of its rows come,
 *   even past `limit` (read again from the tables, since `p`, `r` and `d` hold only limit + 1 rows).
 */
const page = (shape: Shape) => `
  WITH p AS (${POSTS}),
  r AS (${shape.replies ? REPLIES : NONE}),
  d AS (${shape.removed ? REMOVED : NONE}),
  s AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM (SELECT seq FROM p UNION ALL SELECT seq FROM r UNION ALL SELECT seq FROM d) u),
  edge AS (SELECT (SELECT seq FROM s WHERE n = $5 - 1) AS last, (SELECT seq FROM s WHERE n = $5) AS next),
  b AS (
    SELECT
      CASE WHEN next IS NULL THEN $2
           WHEN next <> last THEN last
           ELSE coalesce((SELECT max(seq) FROM s WHERE seq < last), last) END AS bound,
      next IS NOT NULL AND next = last AND NOT EXISTS (SELECT 1 FROM s WHERE seq < last) AS whole,
      next IS NOT NULL AS cut
    FROM edge
  ),
  -- The scalar subqueries on b are evaluated once: a branch whose condition is false reads no table.
  page_posts AS (
    SELECT * FROM p WHERE NOT (SELECT whole FROM b) AND seq <= (SELECT bound FROM b)
    UNION ALL
    SELECT ${readablePostColumns('y', '$3')} FROM posts y
    WHERE (SELECT whole FROM b) AND y.seq = (SELECT bound FROM b) AND ${visibleTo('$3', '$4', 'y')}
  )${
    shape.replies
      ? `,
  page_replies AS (
    SELECT * FROM r WHERE NOT (SELECT whole FROM b) AND seq <= (SELECT bound FROM b)
    UNION ALL
    SELECT ${readableReplyColumns('x', '$3')} FROM replies x JOIN posts y ON y.id = x.post_id
    WHERE (SELECT whole FROM b) AND x.seq = (SELECT bound FROM b) AND ${visibleTo('$3', '$4', 'y')}
  )`
      : ''
  }${
    shape.removed
      ? `,
  page_removed AS (
    SELECT * FROM d WHERE NOT (SELECT whole FROM b) AND seq <= (SELECT bound FROM b)
    UNION ALL
    SELECT id, seq FROM deleted_posts WHERE (SELECT whole FROM b) AND seq = (SELECT bound FROM b) AND ${visibleTo('$3', '$4')}
  )`
      : ''
  }
  SELECT json_build_object(
    'posts', (SELECT coalesce(json_agg(x ORDER BY x.seq, x.id), '[]') FROM page_posts x),
    ${shape.replies ? `'replies', (SELECT coalesce(json_agg(x ORDER BY x.seq, x.created_at), '[]') FROM page_replies x),` : ''}
    ${shape.removed ? `'removed', (SELECT coalesce(json_agg(x ORDER BY x.seq, x.id), '[]') FROM page_removed x),` : ''}
    'bound', b.bound,
    'whole', b.whole,
    'cut', b.cut
  )::text AS page
  FROM b`;

// Whether anything this viewer may see follows $1 (asked only after a page of one change number).
const moreAfter = (shape: Shape) =>
  `SELECT EXISTS (SELECT 1 FROM posts WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')})${
    shape.replies
      ? ` OR EXISTS (SELECT 1 FROM replies r JOIN posts p ON p.id = r.post_id WHERE r.seq > $1 AND r.seq <= $2 AND ${visibleTo('$3', '$4', 'p')})`
      : ''
  }${shape.removed ? ` OR EXISTS (SELECT 1 FROM deleted_posts WHERE seq > $1 AND seq <= $2)` : ''} AS more`;

/** The shape of a page for a request of `protocol`. */
const shapeOf = (protocol: number): Shape => ({ replies: protocol >= 2, removed: protocol >= 3 });

// The statements of each shape, made once.
const STATEMENTS = new Map(
  [1, 2, 3].map((protocol) => {
    const shape = shapeOf(protocol);
    return [protocol, { shape, page: page(shape), more: moreAfter(shape) }] as const;
  }),
);

interface RawPage {
  posts: PostRow[];
  replies?: ReplyRow[];
  removed?: { id: number | string; seq: number | string }[];
  bound: number | string;
  whole: boolean;
  cut: boolean;
}

/**
 * One page of changes after `after` that `viewer` may see, oldest first: at most `limit` rows in all
 * (posts, replies and removed posts counted together), except when more rows than that share one
 * change number. A `protocol` 1 request gets posts only, counted alone; a `protocol` 2 request
 * posts and replies, and no `removed` key (a deleted post is simply absent: an older device keeps
 * its copy until it updates).
 */
export async function pullChanges(
  sql: Sql,
  viewer: UserRow,
  after: number,
  limit: number,
  protocol: number,
): Promise<PullResponse | WritingPage | ConversationsPage | PostsPage> {
  const { shape, page: pageSql, more: moreSql } = STATEMENTS.get(Math.min(Math.max(protocol, 1), 3))!;
  const admin = viewer.role === 'admin';
  const head = await changeHead(sql);
  const [row] = await sql.query<{ page: string }>(pageSql, [after, head, admin, viewer.email, limit + 1]);
  const raw = JSON.parse(row!.page) as RawPage;
  const bound = Number(raw.bound);
  let more = raw.cut;
  if (raw.whole) {
    const [following] = await sql.query<{ more: boolean }>(moreSql, [bound, head, admin, viewer.email]);
    more = following!.more;
  }
  const posts: WirePost[] = raw.posts.map((post) => toWirePost(post, admin));
  const cursor = more ? bound : head;
  if (!shape.replies) return { posts, cursor, more };
  const replies: WireReply[] = (raw.replies ?? []).map((reply) => toWireReply(reply, admin));
  if (!shape.removed) return { posts, replies, cursor, more };
  const removed = (raw.removed ?? []).map((gone) => ({ id: Number(gone.id), seq: Number(gone.seq) }));
  return { posts, replies, removed, cursor, more };
}
