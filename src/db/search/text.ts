// What "matches the search" means, in one place: a case-insensitive substring of the title or
// the content. Text is NFC-normalized first, so a letter typed precomposed finds the same letter
// written with a combining mark.

/** The longest search the box (and the address's `q`) accepts. */
export const SEARCH_MAX_CHARS = 200;

/**
 * A query as typed or read from the address: control characters removed (U+0000 separates the
 * title from the content in the index, so it must never reach it) and cut to SEARCH_MAX_CHARS.
 */
export function cleanSearchQuery(value: string): string {
  return value.replace(/\p{Cc}/gu, '').slice(0, SEARCH_MAX_CHARS);
}

/** The form a query and the searched text are compared in. */
export function normalizeSearch(value: string): string {
  return cleanSearchQuery(value).normalize('NFC').toLowerCase().trim();
}

/** The one key of a search (its category and query), for caches and stale-answer checks. */
export function searchKey(category: string, query: string): string {
  return `${category}\u0000${query}`;
}

/** The searchable text of a post; the separator can never be typed into a search box. */
export function searchableText(post: { title: string; content: string }): string {
  return `${post.title.normalize('NFC').toLowerCase()}\u0000${post.content.normalize('NFC').toLowerCase()}`;
}

/** True when the (already normalized) needle is a substring of the title or the content. */
export function matchesSearch(post: { title: string; content: string }, needle: string): boolean {
  if (!needle) return true;
  return searchableText(post).includes(needle);
}
