// What "matches the search" means, in one place: a case-insensitive substring of the title or
// the content. Text is NFC-normalized first, so a letter typed precomposed finds the same letter
// written with a combining mark.

import { searchableText } from '../../shared/search-text';

export { SEARCH_MAX_CHARS, cleanSearchQuery, normalizeSearch, searchableText } from '../../shared/search-text';

/** The one key of a search (its category and query), for caches and stale-answer checks. */
export function searchKey(category: string, query: string): string {
  return `${category}\u0000${query}`;
}

/** True when the (already normalized) needle is a substring of the title or the content. */
export function matchesSearch(post: { title: string; content: string }, needle: string): boolean {
  if (!needle) return true;
  return searchableText(post).includes(needle);
}
