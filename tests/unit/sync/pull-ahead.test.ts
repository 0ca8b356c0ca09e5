// Reading pages ahead of what is stored (src/sync/pull-ahead.ts) and storing several pulled pages in
// one transaction (applyPullPages): the batches a first sync stores, in order, all or nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { onLocalChange } from '../../../src/db/storage/changes';
import { applyPullPages } from '../../../src/db/sync/apply-pull';
import { SYNC_META, markConnected, readCursor } from '../../../src/db/ops/sync-meta';
import { META_KEYS } from '../../../src/db/contracts';
import { PullAhead } from '../../../src/sync/pull-ahead';
import type { PullResponse } from '../../../src/shared/protocol';
import { makePost } from '../factories';
import { pullPage, wirePost } from './fixtures';

const OWNER = 'member@example.com';

/** A server whose changes end at cursor `last`, one per page, whose answers the test releases one by one. */
function heldServer(last: number) {
  const asked: { after: number; limit: number; answer: (page: PullResponse) => void; fail: (error: Error) => void }[] = [];
  const fetchPage = (after: number, limit: number) =>
    new Promise<PullResponse>((answer, fail) => asked.push({ after, limit, answer, fail }));
  /** Answers the request `index` with the page after its cursor. */
  const release = async (index: number) => {
    const request = asked[index]!;
    const cursor = request.after + 1;
    request.answer(pullPage({ cursor, more: cursor < last }));
    await new Promise((settled) => setTimeout(settled, 0)); // every promise reaction has run
  };
  return { asked, fetchPage, release };
}

describe('reading pages ahead of the store', () => {
  it('asks for the small first page, then each next page from the cursor before it, and batches what arrived', async () => {
    const server = heldServer(6);
    const reader = new PullAhead(server.fetchPage, 0, { firstLimit: 100, limit: 1000, most: 3 });
    expect(server.asked.map(({ after, limit }) => [after, limit])).toEqual([[0, 100]]);
    const first = reader.take();
    await server.release(0);
    // The first page is stored alone: nothing else had arrived.
    expect((await first).map((page) => page.cursor)).toEqual([1]);
    // While it is stored, the next pages arrive, up to `most` held.
    await server.release(1);
    await server.release(2);
    await server.release(3);
    expect(server.asked.map(({ after }) => after)).toEqual([0, 1, 2, 3]);
    expect(server.asked.slice(1).every(({ limit }) => limit === 1000)).toBe(true);
    // Three held: no fourth is asked for until a batch is taken.
    expect((await reader.take()).map((page) => page.cursor)).toEqual([2, 3, 4]);
    expect(server.asked.map(({ after }) => after)).toEqual([0, 1, 2, 3, 4]);
    await server.release(4);
    await server.release(5);
    expect((await reader.take()).map((page) => page.cursor)).toEqual([5, 6]);
    expect(server.asked).toHaveLength(6); // page 6 said more: false
  });

  it('a failed fetch is thrown after the pages that arrived before it', async () => {
    const server = heldServer(15);
    const reader = new PullAhead(server.fetchPage, 10, { firstLimit: 1000, limit: 1000, most: 4 });
    await server.release(0);
    await server.release(1);
    server.asked[2]!.fail(new Error('unreachable'));
    await new Promise((settled) => setTimeout(settled, 0));
    expect((await reader.take()).map((page) => page.cursor)).toEqual([11, 12]);
    await expect(reader.take()).rejects.toThrow('unreachable');
    expect(server.asked).toHaveLength(3);
  });

  it('a fetch that throws at once is thrown by take(), not lost', async () => {
    const reader = new PullAhead(
      () => {
        throw new Error('bad request');
      },
      0,
      { firstLimit: 100, limit: 1000, most: 4 },
    );
    await expect(reader.take()).rejects.toThrow('bad request');
  });

  it('stop() asks for no more pages', async () => {
    const server = heldServer(5);
    const reader = new PullAhead(server.fetchPage, 0, { firstLimit: 100, limit: 1000, most: 4 });
    reader.stop();
    await server.release(0);
    expect(server.asked).toHaveLength(1);
  });
});

describe('storing several pulled pages in one transaction', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const posts = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => wirePost(makePost({ id: from + index, status: 'approved' }), { seq: from + index }));

  it('stores every page in order with the last cursor, and tells the page once', async () => {
    await markConnected();
    const heard: string[] = [];
    const stop = onLocalChange((kind) => heard.push(kind));
    const pages = [
      pullPage({ posts: posts(1, 3), cursor: 3, more: true }),
      pullPage({ posts: posts(4, 3), cursor: 6, more: true }),
      pullPage({ posts: [wirePost(makePost({ id: 2, status: 'approved', title: 'Edited later' }), { seq: 7 })], cursor: 7, more: false }),
    ];
    const { changed } = await applyPullPages(pages, OWNER, 0);
    stop();
    expect(changed).toBe(7);
    expect((await db.posts.orderBy('id').keys()).map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
    // A later page's version of a post wins over an earlier page's.
    expect((await db.posts.get(2))!.title).toBe('Edited later');
    expect(await readCursor()).toBe(7);
    expect(heard).toEqual(['synced']);
  });

  it('a first sync’s pages in one batch all arrive long ago, and its full-pull marker spans the batches', async () => {
    await markConnected();
    const first = [pullPage({ posts: posts(1, 2), cursor: 2, more: true }), pullPage({ posts: posts(3, 2), cursor: 4, more: true })];
    await applyPullPages(first, OWNER, 0);
    // The pull from the start is still running: the next batch's posts are not news either.
    expect(await db.meta.get(META_KEYS.syncFullPull)).toBeDefined();
    await applyPullPages(
      [pullPage({ posts: posts(5, 1), cursor: 5, more: true }), pullPage({ posts: posts(6, 1), cursor: 6, more: false })],
      OWNER,
      4,
    );
    expect(await db.meta.get(META_KEYS.syncFullPull)).toBeUndefined();
    expect((await db.posts.toArray()).map((post) => post.arrivedAt)).toEqual([0, 0, 0, 0, 0, 0]);
    // A later pull's posts are news.
    vi.spyOn(Date, 'now').mockReturnValue(1_900_000_000_000);
    await applyPullPages([pullPage({ posts: posts(7, 1), cursor: 7, more: false })], OWNER, 6);
    expect((await db.posts.get(7))!.arrivedAt).toBe(1_900_000_000_000);
  });

  it('a page asked for before the cursor went back is stored, and the cursor stays back', async () => {
    await markConnected();
    await applyPullPages([pullPage({ posts: posts(1, 1), cursor: 1, more: false })], OWNER, 0);
    // The cursor went back to 0 (Download the whole forum) while pages from 1 were on their way.
    await db.meta.put({ key: SYNC_META.cursor, value: 0 });
    await applyPullPages(
      [pullPage({ posts: posts(2, 1), cursor: 2, more: true }), pullPage({ posts: posts(3, 1), cursor: 3, more: false })],
      OWNER,
      1,
    );
    expect((await db.posts.orderBy('id').keys()).map(Number)).toEqual([1, 2, 3]);
    expect(await readCursor()).toBe(0);
  });

  it('a page that cannot be stored leaves the whole batch unstored and the cursor where it was', async () => {
    await markConnected();
    await applyPullPages([pullPage({ posts: posts(1, 2), cursor: 2, more: true })], OWNER, 0);
    const heard: string[] = [];
    const stop = onLocalChange((kind) => heard.push(kind));
    const broken = pullPage({ posts: posts(5, 1), cursor: 5, more: false });
    // A malformed row (its key missing) makes IndexedDB refuse the third page.
    (broken.posts[0] as { id?: number }).id = undefined;
    await expect(
      applyPullPages(
        [pullPage({ posts: posts(3, 1), cursor: 3, more: true }), pullPage({ posts: posts(4, 1), cursor: 4, more: true }), broken],
        OWNER,
        2,
      ),
    ).rejects.toThrow();
    stop();
    expect((await db.posts.orderBy('id').keys()).map(Number)).toEqual([1, 2]);
    expect(await readCursor()).toBe(2);
    expect(heard).toEqual([]);
  });
});
