import { describe, expect, it } from 'vitest';
import { exportPosts, importPosts } from '../../../../src/db/posts/backup';
import {
  BLOCK_POSTS,
  PACKED_SEARCH_LIMIT,
  ROWS_KEPT,
  choosePacked,
  packPosts,
  packedAmong,
  searchPacked,
  unpackOlder,
  unpackPost,
} from '../../../../src/db/posts/packed';
import { readPackedCounts } from '../../../../src/db/posts/packed-counts';
import { countApprovedPosts, getPost } from '../../../../src/db/posts/posts';
import { db } from '../../../../src/db/storage/schema';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { parseQuery } from '../../../../src/shared/search-language';
import type { Post, Reply } from '../../../../src/db/types';
import { categoryRow, makePost, signInAsAdmin } from '../../factories';

const fileOf = (value: unknown) => new Blob([JSON.stringify(value)], { type: 'application/json' });
const backupOf = (posts: Post[], replies: Reply[] = []) => ({ format: 'insight-exchange-backup', version: 2, posts, replies });

/** `count` approved posts with ids from `first` up, every third one in Qualitative. */
const posts = (count: number, first = 1) =>
  Array.from({ length: count }, (_, at) =>
    makePost({ id: first + at, title: `Post number ${first + at}`, category: at % 3 === 0 ? 'Qualitative' : 'Quantitative' }),
  );

const reply = (postId: number, id: string, content = 'A reply', state: Reply['state'] = 'visible'): Reply => ({
  id,
  postId,
  author: 'Replying Member',
  authorEmail: 'replier@example.com',
  authorRole: 'user',
  content,
  quoteId: null,
  createdAt: 1_800_000_000_000,
  editedAt: null,
  state,
});

const blockCount = () => db.postBlocks.count();

describe('a local-only import of a large backup', () => {
  it('keeps the newest approved posts, pending ones and a local account’s own as rows, and packs the rest with their replies', async () => {
    const admin = signInAsAdmin();
    await db.accounts.put({ email: 'own@example.com', name: 'Own', createdAt: 1 });
    const approved = posts(ROWS_KEPT + 2 * BLOCK_POSTS + 30);
    approved[5] = { ...approved[5]!, authorEmail: 'Own@Example.com' };
    approved[7] = { ...approved[7]!, authorEmail: admin.email };
    const pending = makePost({ id: 3, status: 'pending', title: 'Waiting' });
    approved[2] = pending;
    const file = backupOf(approved, [reply(1, 'r1'), reply(1, 'r2', 'hidden text', 'hidden'), reply(ROWS_KEPT + 1_000, 'r3')]);
    const result = await importPosts(fileOf(file));

    const packedCount = 2 * BLOCK_POSTS + 30 - 3; // the pending post, the local account's and the admin's own stay rows
    expect(result).toMatchObject({ added: approved.length, cancelled: false });
    expect(result.replies.added).toBe(3);
    expect(await db.posts.count()).toBe(approved.length - packedCount);
    expect(await countApprovedPosts('All')).toBe(ROWS_KEPT + 2);
    expect(await getPost(8)).toMatchObject({ authorEmail: admin.email });
    expect(await getPost(3)).toMatchObject({ status: 'pending' });
    expect(await getPost(6)).toMatchObject({ authorEmail: 'own@example.com' });
    expect(await getPost(1)).toBeUndefined();
    expect(await db.replies.count()).toBe(1);
    expect(await blockCount()).toBe(3);
    const counts = await readPackedCounts();
    expect(counts.All).toBe(packedCount);
    expect(counts.Qualitative! + counts.Quantitative!).toBe(packedCount);
    // Every block's range holds exactly its posts, newest first, and no two ranges overlap.
    const blocks = await db.postBlocks.orderBy('lo').toArray();
    for (const block of blocks) {
      expect(block.posts.map((post) => post.id)).toEqual(block.posts.map((post) => post.id).sort((a, b) => b - a));
      expect(block.lo).toBe(block.posts.at(-1)!.id);
      expect(block.hi).toBe(block.posts[0]!.id);
    }
    expect(blocks[1]!.lo).toBeGreaterThan(blocks[0]!.hi);
    expect(blocks[0]!.replies.map((item) => item.id)).toEqual(['r1', 'r2']);
  }, 60_000);

  it('packs nothing on a connected device, nor for a file of fewer posts than the rows kept and a block', async () => {
    expect(await choosePacked(posts(ROWS_KEPT + BLOCK_POSTS))).toEqual(new Set());
    expect((await choosePacked(posts(ROWS_KEPT + BLOCK_POSTS + 1))).size).toBe(BLOCK_POSTS + 1);
    await markConnected();
    signInAsAdmin();
    const result = await importPosts(fileOf(backupOf(posts(ROWS_KEPT + BLOCK_POSTS + 1))));
    expect(result.added).toBe(ROWS_KEPT + BLOCK_POSTS + 1);
    expect(await blockCount()).toBe(0);
    expect(await readPackedCounts()).toEqual({});
  }, 60_000);

  it('packs only below every approved post held already, as a row or packed, and never a post held as a row', async () => {
    await packPosts(posts(BLOCK_POSTS, 10_000), []);
    await db.posts.put({ ...makePost({ id: 9_000, status: 'pending' }), rev: 1 });
    await db.posts.put({ ...makePost({ id: 505 }), rev: 2 });
    const file = [...posts(BLOCK_POSTS + 10, 1), ...posts(5, 10_100), ...posts(ROWS_KEPT, 30_000)];
    // Below the approved row 505 (the pending row does not count): 504 posts, a block's worth.
    expect([...(await choosePacked(file))].sort((a, b) => a - b)).toEqual(Array.from({ length: 504 }, (_, at) => at + 1));
    await db.posts.put({ ...makePost({ id: 400 }), rev: 3 });
    expect(await choosePacked(file)).toEqual(new Set());
    await db.posts.bulkDelete([400, 505]);
    // Below the blocks' lowest id: the posts in and above the blocks' range stay out.
    const below = await choosePacked(file);
    expect(below.size).toBe(BLOCK_POSTS + 10);
    expect(Math.max(...below)).toBe(BLOCK_POSTS + 10);
  });

  it('leaves posts packed when the same file comes again, and unpacks only those it changes', async () => {
    signInAsAdmin();
    const list = posts(ROWS_KEPT + BLOCK_POSTS + 10);
    const file = backupOf(list, [reply(3, 'r1')]);
    await importPosts(fileOf(file));
    const counts = await readPackedCounts();
    const rows = await db.posts.count();
    expect(counts.All).toBe(BLOCK_POSTS + 10);

    const again = await importPosts(fileOf(file));
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: list.length, cancelled: false });
    expect(again.replies).toMatchObject({ added: 0, updated: 0 });
    expect(await db.posts.count()).toBe(rows);
    expect(await readPackedCounts()).toEqual(counts);

    // More likes on one packed post, a new reply on another (not in the file itself): both become rows.
    const changed = backupOf([{ ...list[1]!, likes: 9 }], [reply(3, 'r1'), reply(4, 'r2', 'A new reply')]);
    const result = await importPosts(fileOf(changed));
    expect(result).toMatchObject({ updated: 1 });
    expect(result.replies).toMatchObject({ added: 1 });
    expect(await getPost(2)).toMatchObject({ likes: 9 });
    expect(await getPost(4)).toMatchObject({ comments: 1 });
    expect(await getPost(3)).toBeUndefined();
    expect((await readPackedCounts()).All).toBe(BLOCK_POSTS + 8);
    expect(await packedAmong([2, 3, 4, 5])).toEqual(new Set([3, 5]));

    const exported = JSON.parse(await (await exportPosts('all')).blob.text()) as { posts: Post[]; replies: Reply[] };
    expect(exported.posts.length).toBe(new Set(exported.posts.map((post) => post.id)).size);
    expect(exported.replies.map((item) => item.id).sort()).toEqual(['r1', 'r2']);
  }, 60_000);

  it('puts a newer backup’s posts in as rows rather than pack them above posts held as rows', async () => {
    signInAsAdmin();
    await importPosts(fileOf(backupOf(posts(ROWS_KEPT + BLOCK_POSTS))));
    expect(await blockCount()).toBe(0);
    await importPosts(fileOf(backupOf(posts(ROWS_KEPT + BLOCK_POSTS + 1, 100_000))));
    expect(await blockCount()).toBe(0);
    expect(await countApprovedPosts('All')).toBe(2 * (ROWS_KEPT + BLOCK_POSTS) + 1);
  }, 60_000);
});

describe('packing', () => {
  it('writes eight blocks a transaction, and a cancel leaves whole transactions only', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const result = await packPosts(posts(20 * BLOCK_POSTS), [], {
      signal: controller.signal,
      onProgress: (done) => {
        seen.push(done);
        controller.abort();
      },
    });
    expect(seen).toEqual([8 * BLOCK_POSTS]);
    expect(result.packed).toBe(8 * BLOCK_POSTS);
    expect(await blockCount()).toBe(8);
    expect((await readPackedCounts()).All).toBe(8 * BLOCK_POSTS);
  });
});

describe('unpacking', () => {
  it('takes the newest packed posts of the forum or of a category as rows, with their replies and comment counts, until none is left', async () => {
    await packPosts(posts(120), [reply(120, 'r1'), reply(120, 'r2'), reply(120, 'r3', 'gone', 'hidden'), reply(3, 'r4')]);
    expect(await countApprovedPosts('All')).toBe(0);

    const first = await unpackOlder('All', 50);
    expect(first.ids).toEqual(Array.from({ length: 50 }, (_, at) => 120 - at));
    expect(first.more).toBe(true);
    expect(await countApprovedPosts('All')).toBe(50);
    expect(await getPost(120)).toMatchObject({ comments: 2 });
    expect(await db.replies.count()).toBe(3);
    expect((await readPackedCounts()).All).toBe(70);

    const qualitative = await unpackOlder('Qualitative', 50);
    expect(qualitative.ids.every((id) => (id - 1) % 3 === 0 && id < 71)).toBe(true);
    expect(qualitative.ids).toHaveLength(24);
    expect(qualitative.more).toBe(false);
    expect(await unpackOlder('Qualitative', 50)).toMatchObject({ ids: [], more: false });

    const rest = await unpackOlder('All', 50);
    expect(rest.ids).toHaveLength(46);
    expect(rest.more).toBe(false);
    expect(await readPackedCounts()).toEqual({});
    expect(await blockCount()).toBe(0);
    expect(await countApprovedPosts('All')).toBe(120);
    expect(await getPost(3)).toMatchObject({ comments: 1 });
  });

  it('unpacks one post opened from a link, and says so when it is not packed', async () => {
    await packPosts(posts(3, 700), [reply(701, 'r1')]);
    expect(await unpackPost(701)).toBe(true);
    expect(await getPost(701)).toMatchObject({ id: 701, comments: 1 });
    expect(await unpackPost(701)).toBe(false);
    expect(await unpackPost(5)).toBe(false);
    expect((await db.postBlocks.get(700))?.posts.map((post) => post.id)).toEqual([702, 700]);
    expect((await readPackedCounts()).All).toBe(2);
  });
});

describe('searching the packed posts', () => {
  it('finds posts by text, phrase, filters and a visible reply’s text, newest first, and unpacks what it shows', async () => {
    const list = posts(30);
    list[9] = { ...list[9]!, title: 'Panel speeders in Q3', tags: ['panels'] };
    list[19] = { ...list[19]!, content: 'We removed SPEEDERS from panel B' };
    await packPosts(list, [reply(5, 'r-visible', 'Speeders again'), reply(6, 'r-hidden', 'speeders hidden', 'hidden')]);

    const found = await searchPacked(parseQuery('speeders'), 'All', null);
    expect(found).toEqual({ ids: [20, 10, 5], total: 3, more: false, replies: { 5: 'r-visible' } });
    expect(await getPost(20)).toBeDefined();
    expect(await getPost(6)).toBeUndefined();
    expect((await readPackedCounts()).All).toBe(27);

    expect((await searchPacked(parseQuery('tag:panels'), 'All', null)).ids).toEqual([]);
    await packPosts([{ ...makePost({ id: 100, title: 'Tagged', tags: ['panels'] }) }], []);
    expect((await searchPacked(parseQuery('tag:panels'), 'All', null)).ids).toEqual([100]);
    expect((await searchPacked(parseQuery('"number 2"'), 'Qualitative', null)).ids).toEqual([28, 25, 22]);
  });

  it('category: looks for a category by its name, also one the admins made (kept by its id)', async () => {
    const LAB = '6f1b2c3d-0000-4000-8000-00000000cafe';
    await db.categories.put(categoryRow(LAB, 'Panel Lab'));
    await packPosts(
      [makePost({ id: 40, title: 'In the lab', category: LAB }), makePost({ id: 41, title: 'Elsewhere', category: 'Trends' })],
      [],
    );
    expect((await searchPacked(parseQuery('category:"panel lab"'), 'All', null)).ids).toEqual([40]);
    expect((await searchPacked(parseQuery('category:trends'), 'All', null)).ids).toEqual([41]);
    expect((await searchPacked(parseQuery('category:6f1b2c3d'), 'All', null)).ids).toEqual([]);
  });

  it('unpacks at most a page of results and counts the rest', async () => {
    await packPosts(posts(PACKED_SEARCH_LIMIT + 20), []);
    const found = await searchPacked(parseQuery('post'), 'All', null);
    expect(found.total).toBe(PACKED_SEARCH_LIMIT + 20);
    expect(found.ids).toHaveLength(PACKED_SEARCH_LIMIT);
    expect(found.more).toBe(true);
    expect(await countApprovedPosts('All')).toBe(PACKED_SEARCH_LIMIT);
  });
});

describe('a backup of a device with packed posts', () => {
  it('holds the packed posts and their replies with the rows, and imports back whole', async () => {
    signInAsAdmin();
    await packPosts(posts(4), [reply(2, 'r1'), reply(2, 'r2', 'hidden', 'hidden'), reply(3, 'r3', '', 'deleted')]);
    await db.posts.put({ ...makePost({ id: 50 }), rev: 1 });
    const exported = await exportPosts('all');
    const data = JSON.parse(await exported.blob.text()) as { count: number; posts: Post[]; replies: Reply[] };
    expect(data.count).toBe(5);
    expect(data.posts.map((post) => post.id)).toEqual([1, 2, 3, 4, 50]);
    expect(data.replies.map((item) => item.id)).toEqual(['r1', 'r2']);
    expect(exported).toMatchObject({ count: 5, replies: 2 });

    await db.delete({ disableAutoOpen: false });
    signInAsAdmin();
    await importPosts(exported.blob);
    expect(await countApprovedPosts('All')).toBe(5);
    expect(await getPost(2)).toMatchObject({ comments: 1 });
  });
});
