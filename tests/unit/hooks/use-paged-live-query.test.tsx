// @vitest-environment happy-dom
// The hook rendered for real (React + happy-dom) over fake-indexeddb: paging, live updates, a new key.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { usePagedLiveQuery, type PageRange } from '../../../src/hooks/use-paged-live-query';
import type { PostRow } from '../../../src/db/storage/schema';
import { makePost, storePosts } from '../factories';

afterEach(cleanup);

// A page of the category's rows, newest first (the hook's PageRange: after a row, through a row or up to a limit).
const newest =
  (category: string) =>
  ({ after, through, limit = Infinity }: PageRange<PostRow>) =>
    db.posts
      .orderBy('id')
      .reverse()
      .filter((post) => post.category === category && (!after || post.id < after.id) && (!through || post.id >= through.id))
      .limit(limit)
      .toArray();

describe('usePagedLiveQuery', () => {
  it('reads the first page, then one page more on loadMore, and knows when there is no more', async () => {
    await storePosts(...Array.from({ length: 5 }, (_, i) => makePost({ id: i + 1 })));
    const { result } = renderHook(() => usePagedLiveQuery(newest('Quantitative'), 'q', { pageSize: 2 }));
    expect(result.current.items).toBeUndefined();
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([5, 4]));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([5, 4, 3, 2]));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([5, 4, 3, 2, 1]));
    expect(result.current.hasMore).toBe(false);
    expect(result.current.loadingMore).toBe(false);
  });

  it('with a known total, "more" is exact even when the last page is full', async () => {
    await storePosts(...Array.from({ length: 4 }, (_, i) => makePost({ id: i + 1 })));
    const { result } = renderHook(() => usePagedLiveQuery(newest('Quantitative'), 'q', { pageSize: 2, total: 4 }));
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(4));
    expect(result.current.hasMore).toBe(false);
  });

  // An older page stored from the server: the rows are read before the count is (it waits for the
  // search index). Meanwhile the list offers its own next page, not the end (whose "Load older posts
  // from the server" would load as it scrolls into view, while held posts were still below).
  it('with a total behind the rows (stored, not yet counted), a full read still has more', async () => {
    await storePosts(...Array.from({ length: 6 }, (_, i) => makePost({ id: i + 1 })));
    const { result } = renderHook(() => usePagedLiveQuery(newest('Quantitative'), 'q', { pageSize: 2, total: 2 }));
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    expect(result.current.hasMore).toBe(false);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(4));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(6));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.loadingMore).toBe(false));
    expect(result.current.items).toHaveLength(6);
    expect(result.current.hasMore).toBe(false);
  });

  it('shows a change to the rows as it is written (live)', async () => {
    await storePosts(makePost({ id: 1, likes: 0 }));
    const { result } = renderHook(() => usePagedLiveQuery(newest('Quantitative'), 'q', { pageSize: 10 }));
    await waitFor(() => expect(result.current.items?.[0]?.likes).toBe(0));
    await db.posts.update(1, { likes: 3 });
    await waitFor(() => expect(result.current.items?.[0]?.likes).toBe(3));
    await storePosts(makePost({ id: 2 }));
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([2, 1]));
  });

  it('a new key starts again from the first page and never shows the old key’s rows', async () => {
    await storePosts(...Array.from({ length: 4 }, (_, i) => makePost({ id: i + 1 })), makePost({ id: 10, category: 'Qualitative' }));
    const { result, rerender } = renderHook(({ category }) => usePagedLiveQuery(newest(category), category, { pageSize: 2 }), {
      initialProps: { category: 'Quantitative' },
    });
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(4));
    rerender({ category: 'Qualitative' });
    // Never the previous category's rows under the new key: undefined until the new read answers.
    expect(result.current.items).toBeUndefined();
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([10]));
    rerender({ category: 'Quantitative' });
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([4, 3]));
  });

  it('with firstScreen, a new key shows its first rows first, then the whole first page by itself', async () => {
    await storePosts(...Array.from({ length: 8 }, (_, i) => makePost({ id: i + 1 })));
    const seen: (number[] | undefined)[] = [];
    const loading: boolean[] = [];
    const moreWhileFirstScreen: boolean[] = [];
    const { result } = renderHook(() => {
      const list = usePagedLiveQuery(newest('Quantitative'), 'q', { pageSize: 5, firstScreen: 2 });
      seen.push(list.items?.map((post) => post.id));
      loading.push(list.loadingMore);
      if (list.items?.length === 2) moreWhileFirstScreen.push(list.hasMore);
      return list;
    });
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([8, 7, 6, 5, 4]));
    // The first screen was rendered on its own before the page grew, and it never read as "loading more".
    expect(seen).toContainEqual([8, 7]);
    expect(seen.findIndex((ids) => ids?.length === 2)).toBeLessThan(seen.findIndex((ids) => ids?.length === 5));
    expect(loading).not.toContain(true);
    // No "Load more" for the frame in which only the first screen is read.
    expect(moreWhileFirstScreen.length).toBeGreaterThan(0);
    expect(moreWhileFirstScreen).not.toContain(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items?.map((post) => post.id)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]));
    expect(result.current.hasMore).toBe(false);
  });
});
