import { afterEach, describe, expect, it } from 'vitest';
import { approvePost, createPost, rejectPost } from '../../../../src/db/posts/posts';
import { db } from '../../../../src/db/storage/schema';
import { SearchEngine } from '../../../../src/db/search/engine';
import { idbPostSource, type PostSource } from '../../../../src/db/search/idb-source';
import { watchPostChanges } from '../../../../src/db/search/watch';
import { SearchIndex } from '../../../../src/db/search/search-index';
import { SEARCH_MAX_CHARS, cleanSearchQuery, matchesSearch, normalizeSearch } from '../../../../src/db/search/text';
import { CATEGORY_FILTERS, type CategoryFilter } from '../../../../src/db/types';
import { categoryRow, makePost, signInAsAdmin, storePosts } from '../../factories';
import { createReply, editReply, hideReply } from '../../../../src/db/replies/replies';
import { parseQuery } from '../../../../src/shared/search-language';
import { deletePost } from '../../../../src/db/posts/editing';

describe('SearchIndex', () => {
  it('finds case-insensitive substrings of title or content, newest first, within a category', () => {
    const index = new SearchIndex();
    index.load([
      makePost({ id: 3, title: 'Diary Studies', content: 'mobile ethnography', category: 'Qualitative' }),
      makePost({ id: 1, title: 'Conjoint', content: 'Pricing research with MOBILE panels', category: 'Quantitative' }),
      makePost({ id: 2, title: 'Mobile', content: 'pending one', status: 'pending' }),
    ]);
    expect(index.size).toBe(2);
    expect(index.search('mobile')).toEqual([3, 1]);
    expect(index.search('mobile', 'Quantitative')).toEqual([1]);
    expect(index.search('diary studies')).toEqual([3]);
    expect(index.search('')).toEqual([3, 1]);
    expect(index.search('studiesmobile')).toEqual([]);
  });

  it('adds, updates and removes posts as their status changes', () => {
    const index = new SearchIndex();
    index.upsert(makePost({ id: 10, title: 'alpha', status: 'pending' }));
    expect(index.search('alpha')).toEqual([]);
    index.upsert(makePost({ id: 10, title: 'alpha', status: 'approved' }));
    index.upsert(makePost({ id: 5, title: 'alpha beta' }));
    index.upsert(makePost({ id: 20, title: 'alpha gamma' }));
    expect(index.search('alpha')).toEqual([20, 10, 5]);
    index.upsert(makePost({ id: 10, title: 'alpha', status: 'rejected' }));
    expect(index.search('alpha')).toEqual([20, 5]);
  });

  it('answers like a scan of every post across many blocks, before and after changes in the middle', () => {
    const words = ['panel', 'weighting', 'diary', 'conjoint', 'bots', 'ai'];
    const category = (id: number) => (id % 3 === 0 ? 'Qualitative' : 'Quantitative');
    const make = (id: number, salt = 0) =>
      makePost({
        id,
        title: `${words[(id + salt) % words.length]} ${id}`,
        content: `${words[(id * 7 + salt) % words.length]}`,
        category: category(id),
      });
    const posts = new Map(Array.from({ length: 5_000 }, (_, i) => [i + 1, make(i + 1)]));
    const index = new SearchIndex();
    index.load(posts.values());
    const reference = (needle: string, filter: CategoryFilter) =>
      [...posts.values()]
        .filter((post) => post.status === 'approved' && (filter === 'All' || post.category === filter) && matchesSearch(post, needle))
        .map((post) => post.id)
        .sort((a, b) => b - a);
    const agree = () => {
      for (const needle of ['panel', 'ai', 'i', '204', '2048 ', 'ting 4', 'diary 5000', 'nothing']) {
        for (const filter of ['All', 'Qualitative'] as CategoryFilter[])
          expect(index.search(needle, filter)).toEqual(reference(needle, filter));
      }
    };
    agree();
    // A removal and a replacement in the first block, an insertion between blocks, one at the end.
    for (const post of [
      makePost({ ...make(100), status: 'rejected' }),
      make(2_049, 1),
      make(4_000, 2),
      makePost({ ...make(7_000), id: 7_000 }),
    ]) {
      posts.set(post.id, post);
      index.upsert(post);
    }
    posts.delete(100);
    const between = makePost({ id: 2_048.5, title: 'panel between blocks', content: 'x', category: 'Qualitative' });
    posts.set(between.id, between);
    index.upsert(between);
    agree();
  });

  it('treats emoji, right-to-left text and combining marks as text', () => {
    const index = new SearchIndex();
    index.load([
      makePost({ id: 1, title: 'Café culture ☕', content: 'نتائج الاستطلاع' }),
      makePost({ id: 2, title: 'CAFE\u0301 SOCIETY', content: '🚀 launch' }),
      makePost({ id: 3, title: 'ÉCOLE', content: 'שלום' }),
    ]);
    expect(index.search(normalizeSearch('café'))).toEqual([2, 1]);
    expect(index.search(normalizeSearch('école'))).toEqual([3]);
    expect(index.search(normalizeSearch('الاستطلاع'))).toEqual([1]);
    expect(index.search(normalizeSearch('🚀'))).toEqual([2]);
    expect(index.search(normalizeSearch('שלום'))).toEqual([3]);
  });

  it('never lets a query reach the separator: U+0000 (as from /forum?q=%00) and other control characters are removed', () => {
    const index = new SearchIndex();
    index.load([makePost({ id: 1, title: 'Panel', content: 'weights' }), makePost({ id: 2, title: 'Other', content: 'text' })]);
    expect(normalizeSearch('\u0000')).toBe('');
    expect(index.search(normalizeSearch('panel\u0000weights'))).toEqual([]);
    expect(index.search(normalizeSearch('pa\u0007nel'))).toEqual([1]);
    expect(cleanSearchQuery('q'.repeat(500))).toHaveLength(SEARCH_MAX_CHARS);
  });
});

describe('SearchEngine', () => {
  let engine: SearchEngine | undefined;
  afterEach(() => engine?.stop());

  it('gives the same answers as the reference query on random posts', async () => {
    const words = ['panel', 'Survey', 'conjoint', 'DIARY', 'bots', 'weighting', 'ai', 'Ethnography'];
    let seed = 7;
    const pick = () => {
      seed = (seed * 16807) % 2147483647;
      return seed;
    };
    const posts = Array.from({ length: 400 }, (_, i) =>
      makePost({
        id: 1_000 + i,
        title: `${words[pick() % words.length]} ${words[pick() % words.length]}`,
        content: `${words[pick() % words.length]} notes`,
        category: CATEGORY_FILTERS[1 + (pick() % 6)]!,
        status: (['approved', 'approved', 'pending', 'rejected'] as const)[pick() % 4],
      }),
    );
    await storePosts(...posts);
    engine = new SearchEngine(idbPostSource());
    for (const query of ['panel', 'SURVEY', 'diary bots', 'ai', 'Weight', 'zzz']) {
      for (const category of ['All', 'Trends', 'Qualitative'] as CategoryFilter[]) {
        const needle = normalizeSearch(query);
        const reference = posts
          .filter((post) => post.status === 'approved' && (category === 'All' || post.category === category) && matchesSearch(post, needle))
          .map((post) => post.id)
          .sort((a, b) => b - a);
        expect(await engine.search(query, category), `${query} in ${category}`).toEqual(reference);
      }
    }
  });

  it('sees a new approval or rejection at once, from any writer', async () => {
    signInAsAdmin();
    await storePosts(makePost({ id: 1, title: 'Old approved panel post' }));
    let changes = 0;
    engine = new SearchEngine(idbPostSource(), () => {
      changes += 1;
    });
    // The page's watch (Dexie) tells the engine (plain IndexedDB) that posts changed.
    const unwatch = watchPostChanges(() => void engine!.refresh());
    expect(await engine.search('panel', 'All')).toEqual([1]);
    const created = await createPost({ title: 'Fresh panel insight', content: 'x' });
    const other = await createPost({ title: 'Another panel', content: 'x' });
    await approvePost(created.id);
    await expect.poll(() => engine!.search('panel', 'All')).toEqual([created.id, 1]);
    await rejectPost(other.id);
    await approvePost(1).catch(() => undefined);
    await expect.poll(() => engine!.search('panel', 'All')).toEqual([created.id, 1]);
    expect(changes).toBeGreaterThan(1);
    unwatch();
  });

  it('category: looks for a category by the name members see, also one the admins made (kept by its id), and follows a rename at once', async () => {
    const LAB = '6f1b2c3d-0000-4000-8000-00000000cafe';
    const labRow = categoryRow(LAB, 'Panel Lab');
    await db.categories.put(labRow);
    await storePosts(makePost({ id: 7, title: 'In the lab', category: LAB }), makePost({ id: 8, title: 'Elsewhere', category: 'Trends' }));
    engine = new SearchEngine(idbPostSource());
    expect(await engine.search('category:panel', 'All')).toEqual([7]);
    expect(await engine.search('category:"panel lab"', 'All')).toEqual([7]);
    expect(await engine.search('category:trends', 'All')).toEqual([8]);
    expect(await engine.search('category:6f1b2c3d', 'All')).toEqual([]);
    await db.categories.put({ ...labRow, name: 'Field Lab' });
    expect(await engine.search('category:field', 'All')).toEqual([7]);
    expect(await engine.search('category:panel', 'All')).toEqual([]);
  });

  it('reads more than one load chunk and folds refreshes that arrive during a read into one more', async () => {
    await storePosts(...Array.from({ length: 5_003 }, (_, i) => makePost({ id: i + 1, title: `Chunked ${i + 1}` })));
    let reads = 0;
    const real = idbPostSource();
    const counting: PostSource = { ...real, changedSince: (rev) => ((reads += 1), real.changedSince(rev)) };
    engine = new SearchEngine(counting);
    expect(engine.size).toBe(0);
    expect((await engine.search('chunked', 'All')).length).toBe(5_003);
    expect(engine.size).toBe(5_003);
    reads = 0;
    await Promise.all([engine.refresh(), engine.refresh(), engine.refresh()]);
    expect(reads).toBe(2);
  });

  it('reads a post written after the newest one was removed, though it takes the removed one’s change number', async () => {
    signInAsAdmin();
    engine = new SearchEngine(idbPostSource());
    const first = await createPost({ title: 'Kept panel post', content: 'x' });
    await approvePost(first.id);
    const newest = await createPost({ title: 'Removed panel post', content: 'x' });
    await approvePost(newest.id);
    expect(await engine.search('panel', 'All')).toEqual([newest.id, first.id]);
    const numberOf = async (id: number) => (await db.posts.get(id))!.rev;
    const taken = await numberOf(newest.id);
    await deletePost(newest.id);
    await engine.refresh();
    expect(await engine.search('panel', 'All')).toEqual([first.id]);
    const next = await createPost({ title: 'Later panel post', content: 'x' });
    await approvePost(next.id);
    expect(await numberOf(next.id)).toBe(taken);
    await engine.refresh();
    expect(await engine.search('panel', 'All')).toEqual([next.id, first.id]);
  });

  it('catches up when a new page connects (a worker that outlived its pages): a row written without a change number, a database made anew', async () => {
    await storePosts(makePost({ id: 1, title: 'Panel before' }));
    engine = new SearchEngine(idbPostSource());
    expect(await engine.search('panel', 'All')).toEqual([1]);
    // Written with the plain API, as a test's raw write: no change number, so no refresh reads it.
    const raw = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(db.name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = raw.transaction('posts', 'readwrite');
      tx.objectStore('posts').put(makePost({ id: 2, title: 'Panel written raw' }));
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    raw.close();
    await engine.refresh();
    expect(await engine.search('panel', 'All')).toEqual([1]);
    await engine.catchUp();
    expect(await engine.search('panel', 'All')).toEqual([2, 1]);
    // The database deleted and made again with other posts: what was held goes.
    await db.delete();
    await db.open();
    await storePosts(makePost({ id: 3, title: 'Panel in a new database' }));
    await engine.catchUp();
    expect(await engine.search('panel', 'All')).toEqual([3]);
  });

  it('never creates the database: with none there, a search fails instead of making an empty one', async () => {
    await db.delete();
    const lonely = new SearchEngine(idbPostSource());
    await expect(lonely.search('panel', 'All')).rejects.toBeTruthy();
    const names = (await indexedDB.databases()).map((info) => info.name);
    expect(names).not.toContain(db.name);
    lonely.stop();
    await db.open();
  });
});

describe('SearchEngine after a failure', () => {
  it('tries the load again on the next search instead of failing for good', async () => {
    await storePosts(makePost({ id: 1, title: 'Recovered panel post' }));
    const real = idbPostSource();
    let failures = 1;
    const flaky: PostSource = {
      ...real,
      lastRev: () => (failures-- > 0 ? Promise.reject(new Error('The connection was lost.')) : real.lastRev()),
    };
    const engine = new SearchEngine(flaky);
    await expect(engine.search('panel', 'All')).rejects.toThrow('The connection was lost.');
    expect(await engine.search('panel', 'All')).toEqual([1]);
    engine.stop();
  });
});

describe('search covers the replies the device holds (issue 39)', () => {
  const reply = (id: string, postId: number, content: string, state = 'visible') => ({ id, postId, content, state });

  it('finds a post through a visible reply, with that reply, under the same filters and category', () => {
    const index = new SearchIndex();
    index.load([
      makePost({ id: 1, title: 'Panel attrition', content: 'weights', category: 'Trends', author: 'Ana' }),
      makePost({ id: 2, title: 'Diary studies', content: 'mobile', category: 'Qualitative', author: 'Ben' }),
      makePost({ id: 3, title: 'Pending one', content: 'x', status: 'pending' }),
    ]);
    index.upsertReply(reply('r-1', 2, 'We saw the same ATTRITION in our diaries'));
    index.upsertReply(reply('r-2', 3, 'attrition on a pending post'));
    index.upsertReply(reply('r-3', 1, 'attrition again, on a post that matches itself'));
    index.upsertReply(reply('r-4', 2, 'a hidden note about wombats', 'hidden'));
    const found = (query: string, category: CategoryFilter = 'All') => index.find(parseQuery(query), category);
    expect(found('attrition')).toEqual({ ids: [2, 1], replies: { 2: 'r-1' } });
    expect(found('attrition', 'Qualitative')).toEqual({ ids: [2], replies: { 2: 'r-1' } });
    expect(found('attrition author:ana')).toEqual({ ids: [1], replies: {} });
    expect(found('"same attrition"')).toEqual({ ids: [2], replies: { 2: 'r-1' } });
    expect(found('wombats')).toEqual({ ids: [], replies: {} });
    // Filters alone list posts, as on the server: replies are not read.
    expect(found('author:ben')).toEqual({ ids: [2], replies: {} });
    expect(index.replyCount).toBe(4);
    index.upsertReply(reply('r-1', 2, 'edited: nothing to see', 'visible'));
    expect(found('attrition')).toEqual({ ids: [1], replies: {} });
    index.upsertReply(reply('r-4', 2, 'a note about wombats, shown again'));
    expect(found('wombats')).toEqual({ ids: [2], replies: { 2: 'r-4' } });
    index.removeReply('r-4');
    expect(found('wombats')).toEqual({ ids: [], replies: {} });
    expect(index.replyCount).toBe(3);
  });

  it('numbers every write of replies, whoever makes it, in the order of the writes', async () => {
    await storePosts(makePost({ id: 1 }));
    const base = {
      postId: 1,
      author: 'Ana',
      authorEmail: 'ana@example.com',
      authorRole: 'user',
      quoteId: null,
      createdAt: 1,
      editedAt: null,
    };
    await db.replies.add({ ...base, id: 'a', content: 'one', state: 'visible', listed: 1, arrivedAt: 1 });
    const first = (await db.replies.get('a'))!.rev!;
    await db.replies.bulkPut([
      { ...base, id: 'b', content: 'two', state: 'visible', listed: 1, arrivedAt: 1 },
      { ...base, id: 'c', content: 'three', state: 'visible', listed: 1, arrivedAt: 1 },
    ]);
    const second = (await db.replies.get('b'))!.rev!;
    expect(second).toBeGreaterThan(first);
    expect((await db.replies.get('c'))!.rev).toBe(second);
    await db.replies.update('a', { content: 'one, edited' });
    const third = (await db.replies.get('a'))!.rev!;
    expect(third).toBeGreaterThan(second);
    await db.replies.where('id').equals('c').modify({ state: 'hidden' });
    expect((await db.replies.get('c'))!.rev).toBeGreaterThan(third);
  });

  it('follows replies written, edited, hidden and deleted on this device', async () => {
    signInAsAdmin();
    await storePosts(
      makePost({ id: 1, title: 'Conjoint pricing', content: 'x' }),
      makePost({ id: 2, title: 'Diary studies', content: 'y' }),
    );
    let changes = 0;
    engine = new SearchEngine(idbPostSource(), () => (changes += 1));
    const unwatch = watchPostChanges(() => void engine!.refresh());
    expect(await engine.find('ethnography', 'All')).toEqual({ ids: [], replies: {} });
    const written = await createReply(2, 'Mobile ethnography worked for us');
    await expect.poll(() => engine!.find('ethnography', 'All')).toEqual({ ids: [2], replies: { 2: written.id } });
    await editReply(written.id, 'Mobile diaries worked for us');
    await expect.poll(() => engine!.search('ethnography', 'All')).toEqual([]);
    expect(await engine.search('mobile diaries', 'All')).toEqual([2]);
    await hideReply(written.id);
    await expect.poll(() => engine!.search('mobile diaries', 'All')).toEqual([]);
    const other = await createReply(1, 'Conjoint with a wombat sample');
    await expect.poll(() => engine!.search('wombat', 'All')).toEqual([1]);
    // A deletion from the device (a spammer's replies, a refused reply) leaves the index too.
    await db.replies.delete(other.id);
    await expect.poll(() => engine!.search('wombat', 'All')).toEqual([]);
    // The newest reply gone, the next write still takes a number past every one read before.
    const kept = await createReply(1, 'Conjoint with a quota');
    await expect.poll(() => engine!.search('quota', 'All')).toEqual([1]);
    await db.replies.delete(kept.id);
    await expect.poll(() => engine!.search('quota', 'All')).toEqual([]);
    await db.replies.update(written.id, { state: 'visible', content: 'Shown again, about a kangaroo' });
    await expect.poll(() => engine!.search('kangaroo', 'All')).toEqual([2]);
    expect(changes).toBeGreaterThan(3);
    unwatch();
  });

  let engine: SearchEngine | undefined;
  afterEach(() => engine?.stop());
});
