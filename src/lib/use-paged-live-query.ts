import { useCallback, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { PAGE_SIZE } from '../db/posts/posts';

export interface PagedList<T> {
  /** The rows read so far; `undefined` while the first page loads. */
  items: T[] | undefined;
  /** True when the last read filled its page, so there may be more. */
  hasMore: boolean;
  /** True while a larger page is being read. */
  loadingMore: boolean;
  loadMore: () => void;
}

interface PagedOptions {
  pageSize?: number;
  /** Total rows available, when known: then "more" is exact instead of guessed from a full page. */
  total?: number;
  /** Changes that must re-read the rows without going back to the first page (new search results). */
  revision?: unknown;
}

/**
 * A live, growing list: the first page is read through an index, each "load more" reads one page
 * more, and any change to the rows on screen (in this tab or another) re-renders them. A new
 * `key` (another search, another category) starts again from the first page.
 */
export function usePagedLiveQuery<T>(read: (limit: number) => Promise<T[]>, key: string, options: PagedOptions = {}): PagedList<T> {
  const { pageSize = PAGE_SIZE, total, revision } = options;
  const [page, setPage] = useState({ key, limit: pageSize });
  const limit = page.key === key ? page.limit : pageSize;
  if (page.key !== key) setPage({ key, limit: pageSize });
  const result = useLiveQuery(async () => ({ key, limit, rows: await read(limit) }), [key, limit, revision]);
  const current = result?.key === key ? result : undefined;
  const loadMore = useCallback(() => setPage((previous) => ({ key: previous.key, limit: previous.limit + pageSize })), [pageSize]);
  const more = current !== undefined && (total === undefined ? current.rows.length >= current.limit : current.limit < total);
  return {
    items: current?.rows,
    hasMore: more,
    loadingMore: current !== undefined && current.limit < limit,
    loadMore,
  };
}
