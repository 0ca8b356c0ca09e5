// Walking a table by key in short reads: each page is its own short transaction, so a long walk
// (an export, the search index load, the mirror snapshot) never makes a like wait behind it.

/**
 * Yields pages until an empty one: `readPage` gets the key of the last row of the previous
 * page (undefined for the first) and returns the rows after it.
 */
export async function* pagesByKey<T, K>(readPage: (after: K | undefined) => Promise<T[]>, keyOf: (row: T) => K): AsyncGenerator<T[]> {
  let after: K | undefined;
  for (;;) {
    const page = await readPage(after);
    if (page.length === 0) return;
    yield page;
    after = keyOf(page[page.length - 1]!);
  }
}
