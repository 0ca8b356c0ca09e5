// @vitest-environment happy-dom
// The forum list's rule of levels (issue 62): a muted post, or a post of a muted category or tag,
// leaves the list unless the category is chosen (or named by `category:`) or the tag named by
// `tag:` (a muted post itself never comes back); `is:watching` and `is:unread` narrow the list.
// Until the levels are read the hook answers nothing, so no muted card shows for a moment.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { useFollowFilter } from '../../../../src/features/forum/use-follow-filter';
import type { CategoryFilter } from '../../../../src/db/types';
import { parseQuery } from '../../../../src/shared/search-language';
import { signInAsMember } from '../../factories';

afterEach(() => cleanup());

const posts = [
  { id: 1, category: 'Trends', tags: [] },
  { id: 2, category: 'Qualitative', tags: ['NPS'] },
  { id: 3, category: 'Qualitative', tags: [] },
  { id: 4, category: 'Trends', tags: ['panels'] },
];

async function shown(query: string, category: CategoryFilter = 'All'): Promise<number[]> {
  const parsed = query ? parseQuery(query) : undefined;
  const { result } = renderHook(() => useFollowFilter(parsed, category));
  await waitFor(() => expect(result.current).toBeDefined());
  return posts.filter(result.current!).map((post) => post.id);
}

describe('useFollowFilter', () => {
  it('muted category, tag and post leave the list; the category chosen or named, or the tag named, brings theirs back', async () => {
    const { email } = signInAsMember();
    await db.follows.bulkPut([
      { email, kind: 'category', target: 'Trends', level: 'muted', at: 1 },
      { email, kind: 'tag', target: 'nps', level: 'muted', at: 1 },
      { email, kind: 'post', target: '4', level: 'muted', at: 1 },
    ]);
    expect(await shown('')).toEqual([3]);
    expect(await shown('', 'Trends')).toEqual([1, 3]);
    expect(await shown('category:trends')).toEqual([1, 3]);
    expect(await shown('tag:nps')).toEqual([2, 3]);
  });

  it('is:watching keeps the posts watched (own level, category or tag); is:unread those with new replies', async () => {
    const { email } = signInAsMember();
    await db.follows.bulkPut([
      { email, kind: 'post', target: '3', level: 'watching', at: 1 },
      { email, kind: 'tag', target: 'panels', level: 'watching', at: 1 },
    ]);
    await db.reads.bulkPut([
      { email, postId: 1, readTo: 5, unread: 2 },
      { email, postId: 2, readTo: 5, unread: 0 },
    ]);
    expect(await shown('is:watching')).toEqual([3, 4]);
    expect(await shown('is:unread')).toEqual([1]);
    expect(await shown('')).toEqual([1, 2, 3, 4]);
  });
});
