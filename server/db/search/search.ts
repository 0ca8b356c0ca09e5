// Full-text search of the forum (GET /api/search): the search language of
// src/shared/search-language.ts (parseQuery) turned into one statement. Its free text and phrases are
// PostgreSQL words (websearch_to_tsquery in English: stems, stop words, phrases), matched against
// each post's stored document (title weight A, content B; post_search, migration 12) and each
// visible reply's (reply_search): a post found through a reply names that reply. Bounded at any
// size: at most CANDIDATES newest matching posts and as many replies are ranked (ts_rank_cd of the
// stored vectors, nothing parsed again), and matches are counted up to COUNT_CAP only ("100+").
// Its filters narrow exactly as matchesFilters does on the device: author (by the member's current
// name) and category a case-insensitive substring (NFC, lower case), tag an exact tag (a leading `#`
// ignored), is:mine the member's own posts; only approved posts, as the forum lists them. Following
// (issue 62): what the member muted is left out unless the search names its category or one of its
// tags (a `category:` or `tag:` filter, or the category dropdown: each result matches them) and the
// post is not muted itself; `is:unread` and `is:watching` as the device reads them (following-sql.ts).
import { listedPostSql, sqlViewer } from '../../../src/shared/visibility';
import type { ParsedQuery } from '../../../src/shared/search-language';
import type { SearchResponse } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import { withAuthors } from '../members/authors';
import type { Reader } from '../storage/adapter';
import { readablePostColumns, toWirePost } from '../posts/post-rows';
import { notMutedSql, postTagsSql, unreadSql, watchingSql } from '../follows/following-sql';

/**
 * The following filters of the search language (issue 62: `is:unread`, `is:watching`), optional
 * until the language parses them: a parse result that has them narrows by them.
 */
export interface FollowingFilters {
  unread?: boolean;
  watching?: boolean;
}
import { withPolls } from '../posts/poll-rows';

/** The text of websearch_to_tsquery: the free text (stray quotes dropped) and each phrase quoted; '' when none. */
export function searchWords(parsed: ParsedQuery): string {
  return [parsed.text.replace(/"/gu, ' '), ...parsed.phrases.map((phrase) => `"${phrase}"`)]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * True when a search has nothing to look for: no words (text or phrase that is more than quotes)
 * and no filter, in every category. The route refuses it rather than list the whole forum.
 */
export function isEmptySearch(parsed: ParsedQuery & FollowingFilters, category: string): boolean {
  const flags = [parsed.mine, parsed.unread, parsed.watching].filter(Boolean).length;
  const filters = parsed.authors.length + parsed.categories.length + parsed.tags.length + flags;
  return searchWords(parsed) === '' && filters === 0 && category === 'All';
}

/** A value compared as the device's normalizeSearch compares it (NFC, lower case, trimmed). */
const normalized = (column: string) => `lower(normalize(btrim(${column}), NFC))`;

export interface SearchRequest {
  parsed: ParsedQuery & FollowingFilters;
  /** The category dropdown's value: 'All', or one category exactly. */
  category: string;
  limit: number;
}

/** How many of the newest matching posts (and replies) a search ranks: its cost at any size. */
export const CANDIDATES = 1000;
/** Matches are counted up to this many; beyond, the answer says "more". */
export const COUNT_CAP = 100;

/** The statement and parameters of a search (exported for the EXPLAIN of the tests). */
export function searchStatement(viewer: UserRow, { parsed, category, limit }: SearchRequest): { text: string; params: unknown[] } {
  const params: unknown[] = [viewer.role === 'admin', viewer.email, viewer.id];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  // What this member may find: what is on the forum that they may see (is:mine: their own of it).
  // (Emails are stored lower-cased, as matchesFilters compares them: the plain comparison uses the index.)
  where.push(listedPostSql(sqlViewer('$1', '$2'), 'y'));
  if (parsed.mine) where.push('y.author_email = $2');
  where.push(notMutedSql('$3', 'y', parsed.categories.length + parsed.tags.length > 0 || category !== 'All'));
  if (parsed.unread) where.push(unreadSql('$3', '$2', 'y'));
  if (parsed.watching) where.push(watchingSql('$3', 'y'));
  const anyOf = (values: string[], condition: (placeholder: string) => string) =>
    values.length ? where.push(`(${values.map((value) => condition(param(value))).join(' OR ')})`) : undefined;
  // An author by the name members see now (a rename changes the member's row, not each post).
  const authorName = `coalesce((SELECT u.name FROM users u WHERE u.email = y.author_email), y.author)`;
  anyOf(parsed.authors, (value) => `strpos(${normalized(authorName)}, ${value}) > 0`);
  // A category by the name members see (one the admins made is kept by its id): the categories whose
  // name holds the word, found once, not looked up for each post.
  anyOf(parsed.categories, (value) => `y.category IN (SELECT c.id FROM categories c WHERE strpos(${normalized('c.name')}, ${value}) > 0)`);
  if (parsed.tags.length) {
    where.push(`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${postTagsSql('y')}) t(tag)
      WHERE regexp_replace(${normalized('t.tag')}, '^#', '') IN (${parsed.tags.map(param).join(', ')}))`);
  }
  if (category !== 'All') where.push(`y.category = ${param(category)}`);
  const filters = where.join(' AND ');
  const columns = readablePostColumns('y', '$1', '$2');
  const words = searchWords(parsed);
  if (!words) {
    // Filters only: the newest matching posts.
    const text = `WITH found AS (SELECT y.id FROM posts y WHERE ${filters} ORDER BY y.id DESC LIMIT ${COUNT_CAP + 1})
      SELECT ${columns}, NULL::uuid AS matched_reply, (SELECT count(*) FROM found) AS total
      FROM found f JOIN posts y ON y.id = f.id ORDER BY y.id DESC LIMIT ${param(limit)}`;
    return { text, params };
  }
  // The query inline (not a CTE's value): the planner reads its words against the index's statistics.
  const q = `websearch_to_tsquery('english'::regconfig, ${param(words)})`;
  // The newest matching posts and replies (each through its GIN index, or the newest first when
  // nearly everything matches: the planner's choice from the index's statistics), ranked from the
  // stored vectors; a post found both ways is listed once, by its better match. A reply's post is
  // looked up by its key (the LATERAL ... OFFSET 0 keeps it a lookup): joined, the planner walked
  // every post backwards to meet the one reply that held a word (160 ms at 100,000 posts on PGlite).
  const text = `WITH by_post AS (
      SELECT s.post_id, NULL::uuid AS reply_id FROM post_search s JOIN posts y ON y.id = s.post_id
      WHERE s.doc @@ ${q} AND ${filters}
      ORDER BY s.post_id DESC LIMIT ${CANDIDATES}
    ),
    by_reply AS (
      SELECT rs.post_id, rs.reply_id FROM reply_search rs JOIN replies r ON r.id = rs.reply_id
        JOIN LATERAL (SELECT y.id FROM posts y WHERE y.id = rs.post_id AND ${filters} OFFSET 0) y ON true
      WHERE rs.doc @@ ${q} AND r.state = 'visible'
      ORDER BY rs.post_id DESC, rs.reply_id DESC LIMIT ${CANDIDATES}
    ),
    ranked AS (
      SELECT c.post_id, c.reply_id,
        ts_rank_cd(coalesce(ps.doc, rs.doc), ${q}) * CASE WHEN c.reply_id IS NULL THEN 1 ELSE 0.5 END AS rank
      FROM (SELECT * FROM by_post UNION ALL SELECT * FROM by_reply) c
      LEFT JOIN post_search ps ON c.reply_id IS NULL AND ps.post_id = c.post_id
      LEFT JOIN reply_search rs ON rs.reply_id = c.reply_id
    ),
    best AS (
      SELECT DISTINCT ON (post_id) post_id, reply_id, rank FROM ranked ORDER BY post_id, rank DESC, reply_id NULLS FIRST
    )
    SELECT ${columns}, b.reply_id AS matched_reply, (SELECT count(*) FROM (SELECT 1 FROM best LIMIT ${COUNT_CAP + 1}) n) AS total
    FROM best b JOIN posts y ON y.id = b.post_id
    ORDER BY b.rank DESC, y.id DESC LIMIT ${param(limit)}`;
  return { text, params };
}

/** The posts matching a search that `viewer` may see, best first, at most `limit`; how many match, up to COUNT_CAP. */
export async function searchPosts(sql: Reader, viewer: UserRow, request: SearchRequest): Promise<SearchResponse> {
  const { text, params } = searchStatement(viewer, request);
  // Without parallel workers: starting them costs PostgreSQL about 100 ms, ten times a bounded search.
  // In the background: a like or a sign-in waiting for the embedded engine goes first.
  const rows = await sql.transaction(
    async (tx) => {
      await tx.query('SET LOCAL max_parallel_workers_per_gather = 0');
      return withPolls(tx, await withAuthors(tx, await tx.query(text, params)), viewer.email);
    },
    { background: true },
  );
  const admin = viewer.role === 'admin';
  const counted = rows.length === 0 ? 0 : Number(rows[0]!.total);
  return {
    posts: rows.map((row) => toWirePost(row, admin, viewer.email)),
    total: Math.min(counted, COUNT_CAP),
    more: counted > COUNT_CAP,
    matches: rows
      .filter((row) => row.matched_reply !== null && row.matched_reply !== undefined)
      .map((row) => ({ postId: Number(row.id), replyId: String(row.matched_reply) })),
  };
}
