// What "matches the search" means, in one place: a case-insensitive substring of the title or
// the content. Text is NFC-normalized first, so a letter typed precomposed finds the same letter
// written with a combining mark.

export { SEARCH_MAX_CHARS, cleanSearchQuery, normalizeSearch } from '../../shared/search-text';

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
