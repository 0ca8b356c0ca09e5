// The service worker's memory of the pages it composed from a snapshot (issue 64, item 1): the
// app shell with a stored snapshot's template, kept while the worker lives, so a reopened /forum is
// answered without reading the snapshot's body or the shell again, nor composing them. A page is
// reused only for the very snapshot it was composed from: each stored snapshot carries its content's
// hash as SNAPSHOT_ID_HEADER (src/db/storage/forum-snapshot.ts), and the worker compares it with the stored
// entry's on every navigation (a header, the body unread), so a new or removed snapshot is never
// answered from memory. A new build is a new worker, which starts with none. The boot script's
// token check is unchanged: the page carries the stored snapshot's own token.

import { SNAPSHOT_ID_HEADER } from '../db/contracts';

/** A composed page: what the worker answered, with the snapshot's id it was composed from. */
interface Composed {
  id: string;
  body: string;
  status: number;
  headers: [string, string][];
}

/** The pages kept (forum plus the post pages opened last); each is the shell plus a snapshot, tens of KB. */
export const COMPOSED_PAGES_KEPT = 8;

export interface ComposedPages {
  /**
   * The page for `key` (a path) from the snapshot `stored` (the Cache Storage entry, its body unread):
   * from memory when it was composed from this very entry, else `compose`d (and kept when the entry
   * has an id and the answer is a page with the snapshot in it).
   */
  answer(key: string, stored: Response | undefined, compose: () => Promise<Response>): Promise<Response>;
  /** Forgets every page (the snapshots are being dropped). */
  clear(): void;
}

export function composedPages(kept = COMPOSED_PAGES_KEPT): ComposedPages {
  const pages = new Map<string, Composed>();
  return {
    async answer(key, stored, compose) {
      const id = stored?.headers.get(SNAPSHOT_ID_HEADER) ?? null;
      const known = pages.get(key);
      if (known && id !== null && known.id === id) {
        // The most recently used last, so the oldest goes first.
        pages.delete(key);
        pages.set(key, known);
        return new Response(known.body, { status: known.status, headers: known.headers });
      }
      pages.delete(key);
      const response = await compose();
      if (id === null || !response.ok || response.headers.get(COMPOSED_HEADER) !== id) return response;
      const headers = [...response.headers].filter(([name]) => name !== COMPOSED_HEADER);
      const body = await response.text();
      pages.set(key, { id, body, status: response.status, headers });
      while (pages.size > kept) pages.delete(pages.keys().next().value as string);
      return new Response(body, { status: response.status, headers });
    },
    clear() {
      pages.clear();
    },
  };
}

/**
 * Set by the composer on a page that carries the snapshot whose id it names (taken off before the
 * page is answered): a page served without it (no snapshot, a build without its stylesheet) is not kept.
 */
export const COMPOSED_HEADER = 'x-composed-from';
