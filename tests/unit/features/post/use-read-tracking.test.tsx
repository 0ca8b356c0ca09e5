// @vitest-environment happy-dom
// The post page's read position (issue 62): it opens at the first reply by someone else after the
// member's read position (none for a post never read); the replies seen send one readPost with the
// latest of them after READ_COALESCE_MS, however many came into view; a post with no replies is
// read (0) when it opens, once.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, type ReplyRow } from '../../../../src/db/storage/schema';
import type { Reply } from '../../../../src/db/types';
import { READ_COALESCE_MS } from '../../../../src/shared/follows';
import { signInAsMember } from '../../factories';

const runOperation = vi.hoisted(() => vi.fn(async () => ({})));
vi.mock('../../../../src/db/ops/run-later', () => ({ runOperation }));

const { useReadTracking } = await import('../../../../src/features/post/use-read-tracking');

/** An IntersectionObserver under which everything observed is at once fully in view. */
class InView {
  constructor(private readonly report: IntersectionObserverCallback) {}
  observe(target: Element) {
    this.report([{ target, isIntersecting: true, intersectionRatio: 1 } as unknown as IntersectionObserverEntry], this as never);
  }
  unobserve() {}
  disconnect() {}
}
beforeAll(() => vi.stubGlobal('IntersectionObserver', InView));
afterAll(() => vi.unstubAllGlobals());
afterEach(() => {
  cleanup();
  runOperation.mockClear();
  document.body.innerHTML = '';
});

const OTHER = 'ana@example.com';
const reply = (id: string, createdAt: number, authorEmail = OTHER): ReplyRow => ({
  id,
  postId: 1,
  author: 'Ana',
  authorEmail,
  authorRole: 'user',
  content: 'A reply',
  quoteId: null,
  createdAt,
  editedAt: null,
  state: 'visible',
  listed: 1,
});

/** The replies on screen, as the thread lists them. */
function listOf(replies: readonly Reply[]) {
  const list = document.createElement('ol');
  for (const { id } of replies) list.insertAdjacentHTML('beforeend', `<li data-reply-id="${id}"></li>`);
  document.body.append(list);
  return { current: list };
}

describe('useReadTracking', () => {
  it('opens at the first reply by someone else after the read position', async () => {
    const { email } = signInAsMember();
    const replies = [reply('a', 100), reply('b', 300, email), reply('c', 400), reply('d', 500)];
    await db.replies.bulkPut(replies);
    await db.reads.put({ email, postId: 1, readTo: 200, unread: 2 });
    const { result } = renderHook(() => useReadTracking(1, email, [], 4, { current: null }));
    await waitFor(() => expect(result.current.firstUnread).toBe('c'));
  });

  it('has no first unread reply for a post never read, nor for one read to its end', async () => {
    const { email } = signInAsMember();
    await db.replies.bulkPut([reply('a', 100)]);
    const never = renderHook(() => useReadTracking(1, email, [], 1, { current: null }));
    await waitFor(() => expect(never.result.current.firstUnread).toBeNull());
    never.unmount();
    await db.reads.put({ email, postId: 1, readTo: 100, unread: 0 });
    const read = renderHook(() => useReadTracking(1, email, [], 1, { current: null }));
    await waitFor(() => expect(read.result.current.firstUnread).toBeNull());
  });

  it('sends one read position, the latest reply seen, for a page of replies seen at once', async () => {
    const { email } = signInAsMember();
    const replies = [reply('a', 100), reply('b', 300), reply('c', 200)];
    await db.replies.bulkPut(replies);
    renderHook(() => useReadTracking(1, email, replies, 3, listOf(replies)));
    await waitFor(() => expect(runOperation).toHaveBeenCalled(), { timeout: READ_COALESCE_MS * 3 });
    expect(runOperation.mock.calls).toEqual([['readPost', { postId: 1, readTo: 300 }]]);
  });

  it('reads a post with no replies when it opens (position 0)', async () => {
    const { email } = signInAsMember();
    renderHook(() => useReadTracking(1, email, [], 0, { current: null }));
    await waitFor(() => expect(runOperation).toHaveBeenCalledWith('readPost', { postId: 1, readTo: 0 }));
  });
});
