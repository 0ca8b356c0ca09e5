// @vitest-environment happy-dom
// The hook rendered for real (React + happy-dom) over fake-indexeddb: paging, live updates, a new key.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { usePagedLiveQuery, type PageRange } from '../../../src/hooks/use-paged-live-query';
import type { PostRow } from '../../../src/db/storage/schema';
import { listApprovedPosts } from '../../../src/db/posts/posts';
import type { Post } from '../../../src/db/types';
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

// Issue 64: at a million posts each older page re-read the whole grown list. Each read of the real
// index (listApprovedPosts) is logged with the rows it returned: a page added reads that page (and
// the one it follows, whose range is fixed then), and a change inside a page read earlier re-reads that page alone.
describe('usePagedLiveQuery, pages added and never re-read whole', () => {
  const approved = (count: number) => Array.from({ length: count }, (_, i) => makePost({ id: i + 1, likes: 0 }));

  function logged() {
    const reads: { range: PageRange<Post>; ids: number[] }[] = [];
    const read = async (range: PageRange<Post>) => {
      const rows = await listApprovedPosts({ category: 'All', ...range });
      reads.push({ range, ids: rows.map((row) => row.id) });
      return rows;
    };
    return { reads, read };
  }

  async function fivePages(read: (range: PageRange<Post>) => Promise<Post[]>) {
    const rendered = renderHook(() => usePagedLiveQuery(read, 'all', { pageSize: 10 }));
    const { result } = rendered;
    await waitFor(() => expect(result.current.items).toHaveLength(10));
    for (let page = 2; page <= 5; page += 1) {
      act(() => result.current.loadMore());
      await waitFor(() => expect(result.current.items).toHaveLength(page * 10));
    }
    return rendered;
  }

  it('each loadMore reads the next page only, after the last row shown', async () => {
    await storePosts(...approved(100));
    const { reads, read } = logged();
    const { result } = renderHook(() => usePagedLiveQuery(read, 'all', { pageSize: 10 }));
    await waitFor(() => expect(result.current.items).toHaveLength(10));
    for (let page = 2; page <= 5; page += 1) {
      const before = reads.length;
      const last = result.current.items!.at(-1)!;
      act(() => result.current.loadMore());
      await waitFor(() => expect(result.current.items).toHaveLength(page * 10));
      expect(result.current.loadingMore).toBe(false);
      // The next page (ten rows after the last shown) and the page it follows, once more over its now
      // fixed range: two pages, however long the list. No other page is read again.
      const since = reads.slice(before);
      expect(since.filter(({ range }) => !range.through).map(({ range, ids }) => [range.after?.id, ids.length])).toEqual([[last.id, 10]]);
      expect(since.filter(({ range }) => range.through).map(({ range, ids }) => [range.through?.id, ids.length])).toEqual([[last.id, 10]]);
    }
    expect(result.current.items!.map((post) => post.id)).toEqual(Array.from({ length: 50 }, (_, i) => 100 - i));
    expect(reads.reduce((sum, { ids }) => sum + ids.length, 0)).toBe(10 + 4 * 20);
    expect(result.current.hasMore).toBe(true);
  });

  it('a like in an older page shows, and re-reads that page alone', async () => {
    await storePosts(...approved(100));
    const { reads, read } = logged();
    const { result } = await fivePages(read);
    const before = reads.length;
    // Post 75 is on the third page (100–91, 90–81, 80–71, …).
    await db.posts.update(75, { likes: 7 });
    await waitFor(() => expect(result.current.items!.find((post) => post.id === 75)?.likes).toBe(7));
    const again = reads.slice(before);
    expect(again.length).toBeGreaterThan(0);
    for (const { range, ids } of again) {
      expect([range.after?.id, range.through?.id]).toEqual([81, 71]);
      expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => 80 - i));
    }
    expect(result.current.items).toHaveLength(50);
  });

  it('a new post at the top and a removal in an older page change the list there, and no row moves or goes missing', async () => {
    await storePosts(...approved(100));
    const { reads, read } = logged();
    const { result } = await fivePages(read);
    await storePosts(makePost({ id: 101 }));
    await waitFor(() => expect(result.current.items![0]!.id).toBe(101));
    await db.posts.delete(65);
    await waitFor(() => expect(result.current.items!.some((post) => post.id === 65)).toBe(false));
    const expected = [101, ...Array.from({ length: 50 }, (_, i) => 100 - i).filter((id) => id !== 65)];
    expect(result.current.items!.map((post) => post.id)).toEqual(expected);
    // The next page still starts after the last row shown.
    const before = reads.length;
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(expected.length + 10));
    expect(
      reads
        .slice(before)
        .filter(({ range }) => !range.through)
        .map(({ range, ids }) => [range.after?.id, ids[0], ids.length]),
    ).toEqual([[51, 50, 10]]);
  });

  it('older rows stored below the end (a page from the server) are read as the next page', async () => {
    await storePosts(...Array.from({ length: 15 }, (_, i) => makePost({ id: 100 + i })));
    const { read } = logged();
    const { result } = renderHook(() => usePagedLiveQuery(read, 'all', { pageSize: 10 }));
    await waitFor(() => expect(result.current.items).toHaveLength(10));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(15));
    expect(result.current.hasMore).toBe(false);
    await storePosts(...Array.from({ length: 30 }, (_, i) => makePost({ id: 50 + i })));
    // The last page, not full, takes in the rows below it up to its size; Load more then reads after them.
    await waitFor(() => expect(result.current.items).toHaveLength(20));
    expect(result.current.hasMore).toBe(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(30));
    expect(result.current.items!.slice(14, 16).map((post) => post.id)).toEqual([100, 79]);
  });
});

// The e2e-sync window test saw a post twice: the last page's live read, started before Load more
// closed it, answered with rows past its end that the next page read too.
it('a read of the last page answered after Load more closed it shows no row twice', async () => {
  await storePosts(...Array.from({ length: 5 }, (_, i) => makePost({ id: 100 + i })));
  let slow: (() => void) | undefined;
  const read = async (range: PageRange<Post>) => {
    const rows = await listApprovedPosts({ category: 'All', ...range });
    // The last page's read after the older rows are stored answers only once Load more has run.
    if (!range.through && !range.after && rows.length > 5) await new Promise<void>((resolve) => (slow = resolve));
    return rows;
  };
  const { result } = renderHook(() => usePagedLiveQuery(read, 'all', { pageSize: 10 }));
  await waitFor(() => expect(result.current.items).toHaveLength(5));
  await storePosts(...Array.from({ length: 20 }, (_, i) => makePost({ id: 50 + i })));
  await waitFor(() => expect(slow).toBeDefined());
  act(() => result.current.loadMore());
  act(() => slow!());
  await waitFor(() => expect(result.current.items).toHaveLength(15));
  const ids = result.current.items!.map((post) => post.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual([104, 103, 102, 101, 100, ...Array.from({ length: 10 }, (_, i) => 69 - i)]);
});
