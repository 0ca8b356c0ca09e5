import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PAGE_SIZE } from '../db/posts/posts';
import { watchRead } from '../db/storage/live-read';

export interface PagedList<T> {
  /** The rows read so far; `undefined` while the first page loads. */
  items: T[] | undefined;
  /**
   * The same rows, page by page, in order: a page's array stays the same object until that page is
   * read again, so a list can render each page as a memoized group that an added page leaves alone.
   */
  pages: readonly (readonly T[])[] | undefined;
  /** True when the last read filled its page, so there may be more. */
  hasMore: boolean;
  /** True while a larger page asked for with loadMore is being read. */
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * The rows of one page, in the list's order: those after `after` (none: from the list's start), and
 * either through `through` (included: a page the list has gone past, whose bounds stay fixed) or at
 * most `limit` (the list's last page, which grows into what lies below it).
 */
export interface PageRange<T> {
  after?: T;
  through?: T;
  limit?: number;
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

/** A page of the list: `id` names its live read, which `limit` changes (a new read) and `through` does not. */
interface Page<T> extends PageRange<T> {
  id: number;
  limit: number;
}

/** A page's rows, and the limit they were read with (a page asked to grow is loading until it is met). */
interface Answer<T> {
  rows: T[];
  limit: number;
}

interface PagesState<T> {
  key: string;
  revision: unknown;
  pages: Page<T>[];
  answers: Readonly<Record<number, Answer<T>>>;
  /** After a new revision: the rows shown before it, kept on screen until its first read answers. */
  held?: T[];
  error?: { value: unknown };
}

let lastPageId = 0;
/**
 * A page's live read: a new one when the page grows, and when the list goes past it (its range
 * fixed): an answer read with its limit just before may hold rows past its end that the next page
 * reads too, and it must not be shown.
 */
const readOf = (page: Page<unknown>) => `${page.id}:${page.limit}:${page.through === undefined ? 'open' : 'closed'}`;

/** The pages that a read longer than a page is shown as (the same arrays for the same read). */
const split = new WeakMap<readonly unknown[], unknown[][]>();

/**
 * `rows` as pages of `size`: a read longer than a page (the rows shown, read again as one for new
 * search results, and held on screen meanwhile; a page grown before its first answer) is shown as
 * the pages it was, so the cards keep their groups (and their elements, and focus) across it.
 */
function asPages<T>(rows: T[], size: number): T[][] {
  if (rows.length <= size) return [rows];
  let pages = split.get(rows) as T[][] | undefined;
  if (!pages) {
    pages = [];
    for (let at = 0; at < rows.length; at += size) pages.push(rows.slice(at, at + size));
    split.set(rows, pages);
  }
  return pages;
}

/**
 * The rows of the pages read so far, page by page, up to the first page not read yet (each page's
 * answer as it was read: the same arrays until the page is read again).
 */
function pagesOf<T>(state: PagesState<T>, size: number): T[][] | undefined {
  if (!state.answers[state.pages[0]!.id]) return state.held && asPages(state.held, size);
  const pages: T[][] = [];
  for (const page of state.pages) {
    const answer = state.answers[page.id];
    if (!answer) break;
    // A page read longer than a page: shown as pages (a closed page that rows were added inside stays one).
    if (page.limit > size) pages.push(...asPages(answer.rows, size));
    else pages.push(answer.rows);
  }
  return pages;
}

/** The rows of the pages read so far, in order, up to the first page not read yet. */
const rowsOf = <T>(state: PagesState<T>): T[] | undefined => joined(pagesOf(state, Infinity));

function joined<T>(pages: readonly (readonly T[])[] | undefined): T[] | undefined {
  if (!pages) return undefined;
  const rows: T[] = [];
  for (const page of pages) rows.push(...page);
  return rows;
}

/**
 * A live, growing list read a page at a time (issue 64): each "load more" reads the next page only,
 * after the last row shown, and adds it to what is on screen; the pages already read are not read
 * again. Each page is a live query of its own over its own range of rows: a change to a row (in this
 * tab or another: a like, an edit, a removal, a new post at the top) re-reads the page that holds
 * it, and no other. Once the list goes past a page, that page's range is fixed (through its last
 * row), so a row added or removed inside it never moves rows between pages. A new `key` (another
 * search, another category) starts again from the first page (its first screen first); a new
 * `revision` reads again, as one page, the rows that were shown.
 */
export function usePagedLiveQuery<T>(read: (page: PageRange<T>) => Promise<T[]>, key: string, options: PagedOptions = {}): PagedList<T> {
  const { pageSize = PAGE_SIZE, total, revision } = options;
  const first = Math.min(options.firstScreen ?? pageSize, pageSize);
  const [state, setState] = useState<PagesState<T>>(() => ({ key, revision, pages: [{ id: ++lastPageId, limit: first }], answers: {} }));
  let current = state;
  if (state.key !== key) {
    current = { key, revision, pages: [{ id: ++lastPageId, limit: first }], answers: {} };
    setState(current);
  } else if (!Object.is(state.revision, revision)) {
    // New search results: the rows shown are read again, as one page as long as what was shown.
    const shown = rowsOf(state);
    current = { key, revision, pages: [{ id: ++lastPageId, limit: Math.max(shown?.length ?? 0, first) }], answers: {}, held: shown };
    setState(current);
  }
  if (current.error) throw current.error.value;

  // Each page's live read, started once and ended when the page leaves (a new key) or grows (a new limit).
  const latestRead = useRef(read);
  const reads = useRef(new Map<string, () => void>());
  useEffect(() => {
    latestRead.current = read;
  });
  const { pages } = current;
  useEffect(() => {
    const wanted = new Set(pages.map(readOf));
    for (const [name, stop] of reads.current)
      if (!wanted.has(name)) {
        stop();
        reads.current.delete(name);
      }
    for (const page of pages) {
      const name = readOf(page);
      if (reads.current.has(name)) continue;
      const { id, limit, after, through } = page;
      const range: PageRange<T> = through === undefined ? { after, limit } : { after, through };
      const ours = (previous: PagesState<T>) => previous.pages.some((one) => readOf(one) === name);
      reads.current.set(
        name,
        watchRead(
          () => latestRead.current(range),
          (rows) =>
            setState((previous) =>
              ours(previous) ? { ...previous, answers: { ...previous.answers, [id]: { rows, limit } }, held: undefined } : previous,
            ),
          (error) => setState((previous) => (ours(previous) ? { ...previous, error: { value: error } } : previous)),
        ),
      );
    }
  }, [pages]);
  useEffect(() => {
    const open = reads.current;
    return () => {
      for (const stop of open.values()) stop();
      open.clear();
    };
  }, []);

  const paged = useMemo(() => pagesOf(current, pageSize), [current, pageSize]);
  const items = useMemo(() => joined(paged), [paged]);
  const last = pages[pages.length - 1]!;
  const lastAnswer = current.answers[last.id];
  const firstAnswer = current.answers[pages[0]!.id];

  // The first screen is on screen: read the rest of the first page.
  const firstScreenShown = pages.length === 1 && firstAnswer !== undefined && firstAnswer.limit < pageSize;
  const firstId = pages[0]!.id;
  useEffect(() => {
    if (!firstScreenShown) return undefined;
    // After the frame that paints it (rAF runs before the paint, the task after it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() =>
        setState((previous) => {
          const [page, ...rest] = previous.pages;
          return rest.length === 0 && page!.id === firstId && page!.limit < pageSize
            ? { ...previous, pages: [{ ...page!, limit: pageSize }] }
            : previous;
        }),
      );
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [firstScreenShown, firstId, pageSize]);

  const loadMore = useCallback(
    () =>
      setState((previous) => {
        const open = previous.pages[previous.pages.length - 1]!;
        const answer = previous.answers[open.id];
        const end = answer?.rows[answer.rows.length - 1];
        // Not read yet, or read empty: the same page grows (there is no row to read after).
        if (!answer || answer.limit < open.limit || end === undefined)
          return { ...previous, pages: [...previous.pages.slice(0, -1), { ...open, limit: Math.max(open.limit, pageSize) + pageSize }] };
        // The open page closes on its last row (read again over that range) and the next page reads after it.
        return {
          ...previous,
          pages: [...previous.pages.slice(0, -1), { ...open, through: end }, { id: ++lastPageId, after: end, limit: pageSize }],
        };
      }),
    [pageSize],
  );

  // While only the first screen is read, "more" waits for the whole page (no Load more for a frame).
  // A total below the rows read is behind them (rows just stored, not counted yet): until it catches
  // up, a full read means there may be more, so the list's end does not yet offer what lies beyond it.
  const shown = items?.length ?? 0;
  const counted = total !== undefined && total >= shown;
  // While a page added by loadMore is read, the page before it says whether there is more (the
  // button stays, loading, instead of the list's end showing for a moment).
  const basis = lastAnswer ?? (pages.length > 1 ? current.answers[pages[pages.length - 2]!.id] : undefined);
  const full = basis !== undefined && basis.rows.length >= basis.limit && (pages.length > 1 || basis.limit >= pageSize);
  const more = full && (!counted || shown < total);
  return {
    items,
    pages: paged,
    hasMore: more,
    loadingMore: (pages.length > 1 || last.limit > pageSize) && (lastAnswer === undefined || lastAnswer.limit < last.limit),
    loadMore,
  };
}
