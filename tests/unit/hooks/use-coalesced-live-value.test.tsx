// @vitest-environment happy-dom
// A live value read again after writes to its tables (Dexie's storagemutated, over fake-indexeddb),
// not after writes elsewhere, afresh for a new key, and nothing without a read.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import Dexie, { RangeSet } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { onTablesWritten } from '../../../src/db/storage/table-writes';
import { useCoalescedLiveValue } from '../../../src/hooks/use-coalesced-live-value';
import { makePost, storePosts } from '../factories';

afterEach(cleanup);

const POSTS = ['posts'] as const;

describe('onTablesWritten', () => {
  it('calls back after a commit to one of its tables (or Dexie’s “everything changed”), not after one to another table', async () => {
    await db.open(); // Opening signals every table as changed: subscribe after it.
    const heard: string[] = [];
    const stop = onTablesWritten(['posts'], () => heard.push('posts'));
    await db.meta.put({ key: 'unrelated', value: 1 });
    expect(heard).toEqual([]);
    await storePosts(makePost({ id: 1 }));
    expect(heard).toEqual(['posts']);
    Dexie.on('storagemutated').fire({ all: new RangeSet(-Infinity, [[[]]]) } as never);
    expect(heard).toEqual(['posts', 'posts']);
    stop();
    await storePosts(makePost({ id: 2 }));
    expect(heard).toEqual(['posts', 'posts']);
  });
});

describe('useCoalescedLiveValue', () => {
  it('reads at once, again after a write to its table, not after writes to others; a new key reads afresh', async () => {
    await db.open(); // Opening signals every table as changed: render after it, so the reads counted are the writes'.
    let reads = 0;
    const count = (category: string) => async () => {
      reads += 1;
      return db.posts.filter((post) => post.category === category).count();
    };
    const { result, rerender } = renderHook(({ category }) => useCoalescedLiveValue(count(category), POSTS, category), {
      initialProps: { category: 'Quantitative' },
    });
    await waitFor(() => expect(result.current).toBe(0), { timeout: 5_000 });
    await storePosts(makePost({ id: 1, category: 'Quantitative' }));
    await waitFor(() => expect(result.current).toBe(1), { timeout: 5_000 });
    const before = reads;
    await db.meta.put({ key: 'unrelated', value: 1 });
    await db.meta.put({ key: 'unrelated', value: 2 });
    await storePosts(makePost({ id: 2, category: 'Quantitative' }));
    await waitFor(() => expect(result.current).toBe(2), { timeout: 5_000 });
    expect(reads).toBe(before + 1);
    rerender({ category: 'Qualitative' });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toBe(0), { timeout: 5_000 });
  });

  it('reads nothing without a read', async () => {
    const { result } = renderHook(() => useCoalescedLiveValue<number>(undefined, POSTS, 'none'));
    await storePosts(makePost({ id: 3 }));
    expect(result.current).toBeUndefined();
  });
});
