// Following (issue 62) in SQL: what a member's levels make of a post (src/shared/follows.ts,
// effectiveLevel and mutedOut) and whether it has replies new to them (countUnread), as conditions
// over the posts table, for the server's lists and search. Each is a few lookups by the follows and
// post_reads primary keys (user_id first) per post considered.

/**
 * A post's tags as a jsonb array: the column holds an array, or (written through the postgres
 * driver) the array's JSON text as a string.
 */
export const postTagsSql = (alias: string): string =>
  `CASE jsonb_typeof(${alias}.tags) WHEN 'array' THEN ${alias}.tags WHEN 'string' THEN (${alias}.tags #>> '{}')::jsonb ELSE '[]'::jsonb END`;

/** The member's own level on the post (its `follows` row of kind post), or NULL. */
const ownLevelSql = (viewerId: string, alias: string): string =>
  `(SELECT f.level FROM follows f WHERE f.user_id = ${viewerId} AND f.kind = 'post' AND f.target = ${alias}.id::text)`;

/**
 * effectiveLevel in SQL: the post's own level, else its category's (when not Normal), else its tags'
 * (Muted when any is muted, else Watching when any is watched; tags compared by tagKey), else Normal.
 */
export const effectiveLevelSql = (viewerId: string, alias: string): string => `coalesce(
    ${ownLevelSql(viewerId, alias)},
    (SELECT f.level FROM follows f WHERE f.user_id = ${viewerId} AND f.kind = 'category' AND f.target = ${alias}.category AND f.level <> 'normal'),
    (SELECT CASE WHEN bool_or(f.level = 'muted') THEN 'muted' WHEN bool_or(f.level = 'watching') THEN 'watching' END
      FROM follows f WHERE f.user_id = ${viewerId} AND f.kind = 'tag'
        AND f.target IN (SELECT lower(btrim(t.tag)) FROM jsonb_array_elements_text(${postTagsSql(alias)}) t(tag))),
    'normal')`;

/**
 * The posts a member's lists keep (not mutedOut): everything when they muted nothing (one lookup per
 * statement, not per post); else those whose effective level is not Muted. `named`: the request
 * names the post's category or one of its tags (a `category:` or `tag:` search, whose every result
 * matches it; a category's own page): then only a post muted itself leaves.
 */
export function notMutedSql(viewerId: string, alias: string, named: boolean): string {
  const mutedAny = `EXISTS (SELECT 1 FROM follows m WHERE m.user_id = ${viewerId} AND m.level = 'muted')`;
  const muted = named ? `${ownLevelSql(viewerId, alias)} = 'muted'` : `${effectiveLevelSql(viewerId, alias)} = 'muted'`;
  return `(NOT ${mutedAny} OR NOT coalesce(${muted}, false))`;
}

/** `is:watching`: the post's effective level for the member is Watching. */
export const watchingSql = (viewerId: string, alias: string): string => `${effectiveLevelSql(viewerId, alias)} = 'watching'`;

/**
 * `is:unread`: the member read the post before (a post never read is new as a whole, not "N new")
 * and a visible reply by someone else was written after their read position (countUnread > 0).
 */
export const unreadSql = (viewerId: string, viewerEmail: string, alias: string): string =>
  `EXISTS (SELECT 1 FROM post_reads pr JOIN replies r ON r.post_id = pr.post_id
    WHERE pr.user_id = ${viewerId} AND pr.post_id = ${alias}.id AND r.state = 'visible' AND r.created_at > pr.read_to
      AND r.author_email <> ${viewerEmail})`;
