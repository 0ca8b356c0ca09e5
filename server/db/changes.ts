// Pull by cursor: the posts (and, from protocol version 2, the replies) a viewer may see whose change
// number is above the cursor, in pages. The page stops at the head read first, and every change at
// or below the head has committed (change_head's row lock orders commits), so a cursor handed out
// never skips a late commit. Several rows can share one change number (a reply and its post; the
// posts of one group commit of likes): a page never ends between two of them.
import type { PullResponse, WirePost, WireReply } from '../../src/shared/protocol';
import type { Sql } from './adapter';
import type { UserRow } from './accounts';
import { toWirePost, visibleTo, type PostRow } from './post-rows';
import { readableReplyColumns, toWireReply, type ReplyRow } from './reply-rows';

/** The newest change number. */
export async function changeHead(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ seq: unknown }>('SELECT seq FROM change_head');
  return Number(row?.seq ?? 0);
}

/** A page of a version-1 pull: posts only. */
export type PostsPage = Omit<PullResponse, 'replies'>;

// Parameters: $1 after, $2 head, $3 admin, $4 email, $5 limit + 1.
const POSTS = `SELECT * FROM posts WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')} ORDER BY seq LIMIT $5`;
const REPLIES = `SELECT ${readableReplyColumns('r', '$3')} FROM replies r JOIN posts p ON p.id = r.post_id
  WHERE r.seq > $1 AND r.seq <= $2 AND ${visibleTo('$3', '$4', 'p')} ORDER BY r.seq LIMIT $5`;

/**
 * One statement for a page (its answer one JSON text: one value to hand over instead of one per
 * column and row; PGlite copies every value out of WebAssembly one by one). `p` and `r` hold the
 * first limit + 1 rows of each kind, `s` the first limit + 1 change numbers of both merged. The
 * page ends at `bound`:
 * - the head, when at most `limit` rows follow the cursor;
 * - else the change number of the page's last row, when the next row has another one;
 * - else the number before it (the page's last rows share their number with the next one: they
 *   wait for the next page, which starts above the cursor and would otherwise skip the rest);
 * - else, when every row of the page shares that one number, that number: all of its rows come,
 *   even past `limit` (read again from the tables, since `p` and `r` hold only limit + 1 rows).
 */
const page = (withReplies: boolean) => `
  WITH p AS (${POSTS}),
  r AS (${withReplies ? REPLIES : `SELECT NULL::bigint AS seq WHERE false`}),
  s AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM (SELECT seq FROM p UNION ALL SELECT seq FROM r) u),
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
    SELECT * FROM posts WHERE (SELECT whole FROM b) AND seq = (SELECT bound FROM b) AND ${visibleTo('$3', '$4')}
  )${
    withReplies
      ? `,
  page_replies AS (
    SELECT * FROM r WHERE NOT (SELECT whole FROM b) AND seq <= (SELECT bound FROM b)
    UNION ALL
    SELECT ${readableReplyColumns('x', '$3')} FROM replies x JOIN posts y ON y.id = x.post_id
    WHERE (SELECT whole FROM b) AND x.seq = (SELECT bound FROM b) AND ${visibleTo('$3', '$4', 'y')}
  )`
      : ''
  }
  SELECT json_build_object(
    'posts', (SELECT coalesce(json_agg(x ORDER BY x.seq, x.id), '[]') FROM page_posts x),
    ${withReplies ? `'replies', (SELECT coalesce(json_agg(x ORDER BY x.seq, x.created_at), '[]') FROM page_replies x),` : ''}
    'bound', b.bound,
    'whole', b.whole,
    'cut', b.cut
  )::text AS page
  FROM b`;

const PAGE_V1 = page(false);
const PAGE_V2 = page(true);

// Whether anything this viewer may see follows $1 (asked only after a page of one change number).
const moreAfter = (withReplies: boolean) =>
  `SELECT EXISTS (SELECT 1 FROM posts WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')})${
    withReplies
      ? ` OR EXISTS (SELECT 1 FROM replies r JOIN posts p ON p.id = r.post_id WHERE r.seq > $1 AND r.seq <= $2 AND ${visibleTo('$3', '$4', 'p')})`
      : ''
  } AS more`;
const MORE_V1 = moreAfter(false);
const MORE_V2 = moreAfter(true);

interface RawPage {
  posts: PostRow[];
  replies?: ReplyRow[];
  bound: number | string;
  whole: boolean;
  cut: boolean;
}

/**
 * One page of changes after `after` that `viewer` may see, oldest first: at most `limit` rows in all
 * (posts and replies counted together), except when more rows than that share one change number.
 * A `protocol` 1 request gets posts only, counted alone, and no `replies` key.
 */
export async function pullChanges(
  sql: Sql,
  viewer: UserRow,
  after: number,
  limit: number,
  protocol: number,
): Promise<PullResponse | PostsPage> {
  const withReplies = protocol >= 2;
  const admin = viewer.role === 'admin';
  const head = await changeHead(sql);
  const [row] = await sql.query<{ page: string }>(withReplies ? PAGE_V2 : PAGE_V1, [after, head, admin, viewer.email, limit + 1]);
  const raw = JSON.parse(row!.page) as RawPage;
  const bound = Number(raw.bound);
  let more = raw.cut;
  if (raw.whole) {
    const [following] = await sql.query<{ more: boolean }>(withReplies ? MORE_V2 : MORE_V1, [bound, head, admin, viewer.email]);
    more = following!.more;
  }
  const posts: WirePost[] = raw.posts.map(toWirePost);
  const cursor = more ? bound : head;
  if (!withReplies) return { posts, cursor, more };
  const replies: WireReply[] = (raw.replies ?? []).map((reply) => toWireReply(reply, admin));
  return { posts, replies, cursor, more };
}
