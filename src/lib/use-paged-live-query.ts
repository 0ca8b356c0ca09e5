import { useCallback, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';

export const PAGE_SIZE = 20;

export interface PagedList<T> {
  /** The rows read so far; `undefined` while the first page loads. */
  items: T[] | undefined;
  /** True when the last read filled its page, so there may be more. */
  hasMore: boolean;
  /** True while a larger page is being read. */
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * A live, growing list: the first page is read through an index, each "load more" reads one page
 * more, and any change to the rows on screen (in this tab or another) re-renders them.
 */
export function usePagedLiveQuery<T>(read: (limit: number) => Promise<T[]>, key: string, pageSize = PAGE_SIZE): PagedList<T> {
  const [page, setPage] = useState({ key, limit: pageSize });
  // A new query (other search, other category) starts again from the first page.
  const limit = page.key === key ? page.limit : pageSize;
  if (page.key !== key) setPage({ key, limit: pageSize });
  const result = useLiveQuery(async () => ({ key, limit, rows: await read(limit) }), [key, limit]);
  const current = result?.key === key ? result : undefined;
  const loadMore = useCallback(() => setPage((previous) => ({ key: previous.key, limit: previous.limit + pageSize })), [pageSize]);
  return {
    items: current?.rows,
    hasMore: current !== undefined && current.rows.length >= current.limit,
    loadingMore: current !== undefined && current.limit < limit,
    loadMore,
  };
}
