// What "matches the search" compares: text NFC-normalized and lower-cased, so a letter typed
// precomposed finds the same letter written with a combining mark. Shared by the device's search
// worker, the forum list and the server's search route.

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

/** The searchable text of a post; the separator can never be typed into a search box. */
export function searchableText(post: { title: string; content: string }): string {
  return `${post.title.normalize('NFC').toLowerCase()}\u0000${post.content.normalize('NFC').toLowerCase()}`;
}
