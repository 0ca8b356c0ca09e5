// @vitest-environment happy-dom
// The forum's list hook rendered for real over fake-indexeddb: browsing by index, the count, search
// through the search client (in-page here: no worker), and a stale answer kept while a new one runs.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useApprovedPosts } from '../../../../src/features/forum/use-approved-posts';
import { stopSearchClient } from '../../../../src/db/search/client';
import { FIRST_POSTS_MARK } from '../../../../src/db/storage/idle';
import { approvePost, createPost } from '../../../../src/db/posts/posts';
import type { CategoryFilter } from '../../../../src/db/types';
import { makePost, signInAsAdmin, storePosts } from '../../factories';

afterEach(() => {
  cleanup();
  stopSearchClient();
});

const ids = (posts: { id: number }[] | undefined) => posts?.map((post) => post.id);

describe('useApprovedPosts', () => {
  it('browses approved posts only, newest first, with the category’s total once the first page is shown', async () => {
    await storePosts(
      makePost({ id: 1, category: 'Quantitative' }),
      makePost({ id: 2, category: 'Qualitative' }),
      makePost({ id: 3, category: 'Quantitative', status: 'pending' }),
      makePost({ id: 4, category: 'Quantitative', status: 'rejected' }),
      makePost({ id: 5, category: 'Quantitative' }),
    );
    const { result, rerender } = renderHook(({ category }: { category: CategoryFilter }) => useApprovedPosts('', category), {
      initialProps: { category: 'All' as CategoryFilter },
    });
    await waitFor(() => expect(ids(result.current.items)).toEqual([5, 2, 1]));
    await waitFor(() => expect(result.current.total).toBe(3));
    expect(result.current.stale).toBe(false);
    rerender({ category: 'Quantitative' });
    await waitFor(() => expect(ids(result.current.items)).toEqual([5, 1]));
    await waitFor(() => expect(result.current.total).toBe(2));
    expect(result.current.hasMore).toBe(false);
  });

  it('a search shows the matching approved posts and their number; a post approved later joins the results', async () => {
    await storePosts(
      makePost({ id: 1, title: 'Conjoint pricing' }),
      makePost({ id: 2, title: 'Diary studies' }),
      makePost({ id: 3, title: 'Conjoint basics', status: 'pending' }),
    );
    const { result } = renderHook(() => useApprovedPosts('  CONJOINT ', 'All'));
    await waitFor(() => expect(ids(result.current.items)).toEqual([1]));
    expect(result.current.total).toBe(1);
    expect(result.current.stale).toBe(false);
    signInAsAdmin();
    await approvePost(3);
    await waitFor(() => expect(ids(result.current.items)).toEqual([3, 1]));
    expect(result.current.total).toBe(2);
  });

  it('`only` (is:unread) narrows the results before paging: the right posts, their number, none while it is read', async () => {
    await storePosts(...Array.from({ length: 30 }, (_, i) => makePost({ id: i + 1, title: `Panel ${i + 1}` })));
    const { result, rerender } = renderHook(
      ({ only }: { only: ReadonlySet<number> | null | undefined }) => useApprovedPosts('is:unread', 'All', null, only),
      { initialProps: { only: undefined as ReadonlySet<number> | null | undefined } },
    );
    // While the posts with new replies are read, nothing is shown (never the unfiltered results).
    await waitFor(() => expect(result.current.stale).toBe(true));
    expect(result.current.items).toBeUndefined();
    // Two old posts far down the list: found at once, not after paging through the other 28.
    rerender({ only: new Set([2, 5]) });
    await waitFor(() => expect(ids(result.current.items)).toEqual([5, 2]));
    expect(result.current.total).toBe(2);
    expect(result.current.hasMore).toBe(false);
    rerender({ only: new Set([5]) });
    await waitFor(() => expect(ids(result.current.items)).toEqual([5]));
    expect(result.current.total).toBe(1);
  });

  it('while a new search runs, the previous answer stays on screen marked stale, then the new one replaces it', async () => {
    await storePosts(makePost({ id: 1, title: 'Conjoint pricing' }), makePost({ id: 2, title: 'Diary studies' }));
    const { result, rerender } = renderHook(({ query }) => useApprovedPosts(query, 'All'), { initialProps: { query: 'conjoint' } });
    await waitFor(() => expect(ids(result.current.items)).toEqual([1]));
    rerender({ query: 'diary' });
    // Same render: the old rows are still there, flagged stale (never a spinner in between).
    expect(result.current.stale).toBe(true);
    expect(ids(result.current.items)).toEqual([1]);
    await waitFor(() => expect(ids(result.current.items)).toEqual([2]));
    expect(result.current.stale).toBe(false);
  });

  it('marks the first posts shown only once there are posts: an empty first read (a first sync still under way) is not them', async () => {
    performance.clearMarks(FIRST_POSTS_MARK);
    const marked = () => performance.getEntriesByName(FIRST_POSTS_MARK, 'mark').length;
    const { result } = renderHook(() => useApprovedPosts('', 'All'));
    await waitFor(() => expect(result.current.items).toEqual([]));
    await waitFor(() => expect(result.current.total).toBe(0));
    expect(marked()).toBe(0);
    // The first sync stores the forum's first page.
    await storePosts(makePost({ id: 7, title: 'From the server' }));
    await waitFor(() => expect(ids(result.current.items)).toEqual([7]));
    await waitFor(() => expect(marked()).toBe(1));
  });

  it('a query of control characters only is no search at all', async () => {
    signInAsAdmin();
    const created = await createPost({ title: 'Sampling frames', content: 'Notes', category: 'Quantitative' });
    await approvePost(created.id);
    await storePosts(makePost({ id: 1, title: 'Older' }));
    const { result } = renderHook(() => useApprovedPosts('\u0000\u0001', 'All'));
    await waitFor(() => expect(ids(result.current.items)).toEqual([created.id, 1]));
    expect(result.current.stale).toBe(false);
  });
});
