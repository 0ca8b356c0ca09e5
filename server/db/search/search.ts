// Full-text search of the forum (protocol version 5, GET /api/search): the search language of
// src/shared/search-language.ts (parseQuery) turned into one statement. Its free text and phrases are
// PostgreSQL words (websearch_to_tsquery in English: stems, stop words, phrases), matched against
// the title (weight A) and the content (weight B) through the GIN index of migration 8, ranked by
// ts_rank_cd, then newest first. Its filters narrow exactly as matchesFilters does on the device:
// author and category a case-insensitive substring (NFC, lower case), tag an exact tag (a leading
// `#` ignored), is:mine the member's own posts; only approved posts, as the forum (and the device's
// search) lists them.
import type { ParsedQuery } from '../../../src/shared/search-language';
import type { SearchResponse } from '../../../src/shared/protocol';
import type { UserRow } from '../members/accounts';
import { withAuthors } from '../members/authors';
import type { Sql } from '../storage/adapter';
import { readablePostColumns, toWirePost } from '../posts/post-rows';

/**
 * The searched document of a post named `alias`: the very expression of the index posts_search
 * (migration 8), or PostgreSQL does not use the index.
 */
export const searchVector = (alias: string) =>
  `(setweight(to_tsvector('english'::regconfig, ${alias}.title), 'A') || setweight(to_tsvector('english'::regconfig, ${alias}.content), 'B'))`;

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
export function isEmptySearch(parsed: ParsedQuery, category: string): boolean {
  const filters = parsed.authors.length + parsed.categories.length + parsed.tags.length + (parsed.mine ? 1 : 0);
  return searchWords(parsed) === '' && filters === 0 && category === 'All';
}

/** A value compared as the device's normalizeSearch compares it (NFC, lower case, trimmed). */
const normalized = (column: string) => `lower(normalize(btrim(${column}), NFC))`;

export interface SearchRequest {
  parsed: ParsedQuery;
  /** The category dropdown's value: 'All', or one category exactly. */
  category: string;
  limit: number;
}

/** The statement and parameters of a search (exported for the EXPLAIN of the tests). */
export function searchStatement(viewer: UserRow, { parsed, category, limit }: SearchRequest): { text: string; params: unknown[] } {
  const params: unknown[] = [viewer.role === 'admin', viewer.email];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  // What this member may find: what is on the forum (is:mine: their own of it).
  // (Emails are stored lower-cased, as matchesFilters compares them: the plain comparison uses the index.)
  where.push(`y.status = 'approved'`);
  if (parsed.mine) where.push('y.author_email = $2');
  const words = searchWords(parsed);
  const query = words ? `websearch_to_tsquery('english'::regconfig, ${param(words)})` : null;
  if (query) where.push(`${searchVector('y')} @@ ${query}`);
  const anyOf = (values: string[], condition: (placeholder: string) => string) =>
    values.length ? where.push(`(${values.map((value) => condition(param(value))).join(' OR ')})`) : undefined;
  anyOf(parsed.authors, (value) => `strpos(${normalized('y.author')}, ${value}) > 0`);
  anyOf(parsed.categories, (value) => `strpos(${normalized('y.category')}, ${value}) > 0`);
  if (parsed.tags.length) {
    // The tags column holds an array, or (written through the postgres driver) the array's JSON text as a string.
    const tags = `CASE jsonb_typeof(y.tags) WHEN 'array' THEN y.tags WHEN 'string' THEN (y.tags #>> '{}')::jsonb ELSE '[]'::jsonb END`;
    where.push(`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${tags}) t(tag)
      WHERE regexp_replace(${normalized('t.tag')}, '^#', '') IN (${parsed.tags.map(param).join(', ')}))`);
  }
  if (category !== 'All') where.push(`y.category = ${param(category)}`);
  const order = query ? `ts_rank_cd(${searchVector('y')}, ${query}) DESC, y.id DESC` : 'y.id DESC';
  const text = `SELECT ${readablePostColumns('y', '$1', '$2')}, count(*) OVER () AS total
    FROM posts y WHERE ${where.join(' AND ')}
    ORDER BY ${order} LIMIT ${param(limit)}`;
  return { text, params };
}

/** The posts matching a search that `viewer` may see, best first, at most `limit`, and how many match in all. */
export async function searchPosts(sql: Sql, viewer: UserRow, request: SearchRequest): Promise<SearchResponse> {
  const { text, params } = searchStatement(viewer, request);
  const rows = await withAuthors(sql, await sql.query(text, params));
  const admin = viewer.role === 'admin';
  return { posts: rows.map((row) => toWirePost(row, admin, viewer.email)), total: rows.length === 0 ? 0 : Number(rows[0]!.total) };
}
