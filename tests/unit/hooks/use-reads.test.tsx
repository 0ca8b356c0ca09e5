// @vitest-environment happy-dom
// The forum's "N new" counts (issue 62), read through the member's [email+unread] index (issue 64,
// item 5): what a card shows, live, at a cost that follows the posts with new replies, never the
// list's length (each older page used to read every card's row again).
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { useUnreadCounts } from '../../../src/hooks/use-reads';
import { signInAsMember } from '../factories';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useUnreadCounts', () => {
  it('the member’s posts with new replies only, live, without a read per post on screen', async () => {
    const { email } = signInAsMember();
    // 500 posts read, five of them with new replies since; another member's row is not theirs.
    await db.reads.bulkPut([
      ...Array.from({ length: 500 }, (_, i) => ({ email, postId: i + 1, readTo: 5, unread: i % 100 === 0 ? 3 : 0 })),
      { email: 'other@example.com', postId: 2, readTo: 5, unread: 4 },
    ]);
    const bulkGet = vi.spyOn(db.reads, 'bulkGet');
    const get = vi.spyOn(db.reads, 'get');
    const { result } = renderHook(() => useUnreadCounts());
    await waitFor(() => expect([...result.current.keys()].sort((a, b) => a - b)).toEqual([1, 101, 201, 301, 401]));
    expect(result.current.get(1)).toBe(3);
    expect(result.current.get(2)).toBeUndefined();
    // A new reply in a post read before shows at once; reading it takes the count away.
    await db.reads.put({ email, postId: 2, readTo: 5, unread: 1 });
    await waitFor(() => expect(result.current.get(2)).toBe(1));
    await db.reads.put({ email, postId: 1, readTo: 9, unread: 0 });
    await waitFor(() => expect(result.current.has(1)).toBe(false));
    expect(bulkGet).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
  });
});
