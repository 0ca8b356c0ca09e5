import { useCallback, useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { PAGE_SIZE } from '../db/posts/posts';

export interface PagedList<T> {
  /** The rows read so far; `undefined` while the first page loads. */
  items: T[] | undefined;
  /** True when the last read filled its page, so there may be more. */
  hasMore: boolean;
  /** True while a larger page asked for with loadMore is being read. */
  loadingMore: boolean;
  loadMore: () => void;
}

interface PagedOptions {
  pageSize?: number;
  /**
   * Rows read and rendered first for a new key, the rest of the first page right after they are on
   * screen: what fills the first screen is painted without waiting for the rows below it.
   */
  firstScreen?: number;
  /** Total rows available, when known: then "more" is exact instead of guessed from a full page. */
  total?: number;
  /** Changes that must re-read the rows without going back to the first page (new search results). */
  revision?: unknown;
}

/**
 * A live, growing list: the first page is read through an index, each "load more" reads one page
 * more, and any change to the rows on screen (in this tab or another) re-renders them. A new
 * `key` (another search, another category) starts again from the first page (its first screen first).
 */
export function usePagedLiveQuery<T>(read: (limit: number) => Promise<T[]>, key: string, options: PagedOptions = {}): PagedList<T> {
  const { pageSize = PAGE_SIZE, total, revision } = options;
  const first = Math.min(options.firstScreen ?? pageSize, pageSize);
  const [page, setPage] = useState({ key, limit: first });
  const limit = page.key === key ? page.limit : first;
  if (page.key !== key) setPage({ key, limit: first });
  const result = useLiveQuery(async () => ({ key, limit, rows: await read(limit) }), [key, limit, revision]);
  const current = result?.key === key ? result : undefined;
  // The first screen is on screen: read the rest of the first page.
  const firstScreenShown = current !== undefined && current.limit < pageSize;
  useEffect(() => {
    if (!firstScreenShown) return undefined;
    // After the frame that paints it (rAF runs before the paint, the task after it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() =>
        setPage((previous) => (previous.key === key && previous.limit < pageSize ? { key, limit: pageSize } : previous)),
      );
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [firstScreenShown, key, pageSize]);
  const loadMore = useCallback(
    () => setPage((previous) => ({ key: previous.key, limit: Math.max(previous.limit, pageSize) + pageSize })),
    [pageSize],
  );
  // While only the first screen is read, "more" waits for the whole page (no Load more for a frame).
  // A total below the rows read is behind them (rows just stored, not counted yet): until it catches
  // up, a full read means there may be more, so the list's end does not yet offer what lies beyond it.
  const counted = total !== undefined && current !== undefined && total >= current.rows.length;
  const more =
    current !== undefined && current.limit >= pageSize && (counted ? current.limit < total : current.rows.length >= current.limit);
  return {
    items: current?.rows,
    hasMore: more,
    loadingMore: current !== undefined && current.limit < limit && limit > pageSize,
    loadMore,
  };
}
