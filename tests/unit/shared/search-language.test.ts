// The search language in the device's search: free text, "phrases", author:, category:,
// tag:, is:mine and their combinations, over a seeded set whose expected ids are known; the category
// dropdown still combines; removing a chip widens the answer again; the engine (what the worker
// runs) reads authors and tags from IndexedDB and answers is:mine for the member it is told.
import { afterEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../src/db/search/search-index';
import { SearchEngine } from '../../../src/db/search/engine';
import { idbPostSource } from '../../../src/db/search/idb-source';
import { searchApprovedPostIds, stopSearchClient } from '../../../src/db/search/client';
import { parseQuery, removeChip } from '../../../src/shared/search-language';
import type { CategoryFilter } from '../../../src/db/types';
import { makePost, storePosts } from '../factories';
import { applyPullPage } from '../../../src/db/sync/apply-pull';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { pullPage, wirePost } from '../sync/fixtures';

const ANA = 'ana@example.com';
const BEN = 'ben@example.com';

/** The seeded forum: ids newest last; 6 is pending (never found). */
const SEED = [
  makePost({
    id: 1,
    title: 'Panel weighting basics',
    content: 'Rake panels to the census margins.',
    author: 'Ana Lima',
    authorEmail: ANA,
    category: 'Quantitative',
    tags: ['weighting', 'panels'],
  }),
  makePost({
    id: 2,
    title: 'Diary studies on mobile',
    content: 'Exact phrase: mobile diary works well.',
    author: 'Ben Okafor',
    authorEmail: BEN,
    category: 'Qualitative',
    tags: ['diary'],
  }),
  makePost({
    id: 3,
    title: 'Conjoint pricing',
    content: 'A mobile diary is not conjoint.',
    author: 'Ana Lima',
    authorEmail: ANA,
    category: 'Quantitative',
    tags: ['#pricing', 'conjoint'],
  }),
  makePost({
    id: 4,
    title: 'Bots in panels',
    content: 'Trends in bot detection for panels.',
    author: 'Ben Okafor',
    authorEmail: BEN,
    category: 'Trends',
    tags: ['panels', 'fraud'],
  }),
  makePost({
    id: 5,
    title: 'AI moderators',
    content: 'Can AI run an interview? Trends say yes.',
    author: 'Carla Ruiz',
    authorEmail: 'carla@example.com',
    category: 'Trends',
    tags: [],
  }),
  makePost({
    id: 6,
    title: 'Pending panels',
    content: 'Not approved yet.',
    author: 'Ana Lima',
    authorEmail: ANA,
    status: 'pending',
    tags: ['panels'],
  }),
];

function seeded(): SearchIndex {
  const index = new SearchIndex();
  index.load(SEED);
  return index;
}
const find = (query: string, category: CategoryFilter = 'All', me: string | null = null) => seeded().query(parseQuery(query), category, me);

afterEach(() => stopSearchClient());

describe('the search language over a seeded set', () => {
  it('free text as today: a case-insensitive substring of title or content, newest first', () => {
    expect(find('')).toEqual([5, 4, 3, 2, 1]);
    expect(find('PANELS')).toEqual([4, 1]);
    expect(find('mobile diary')).toEqual([3, 2]);
    expect(find('nothing like this')).toEqual([]);
  });

  it('a filter begun without its value, and empty quotes, narrow nothing (typing `tag:b2b` passes through `tag:`)', () => {
    for (const halfway of ['tag:', 'author:', 'category:', 'is:', '""', 'Tag: ""']) expect(find(halfway), halfway).toEqual([5, 4, 3, 2, 1]);
    expect(find('panels tag:')).toEqual([4, 1]);
    expect(parseQuery('tag: panels').text).toBe('panels');
    // A filter with its value still narrows; `tag:` inside a word is text.
    expect(find('tag:fraud')).toEqual([4]);
    expect(parseQuery('hashtag:x').text).toBe('hashtag:x');
  });

  it('a "phrase" must appear as typed (any case); it adds to the free text', () => {
    expect(find('"mobile diary"')).toEqual([3, 2]);
    expect(find('"diary is not"')).toEqual([3]);
    expect(find('"Exact Phrase"')).toEqual([2]);
    expect(find('works "mobile diary"')).toEqual([2]);
    expect(find('"mobile diary" "conjoint"')).toEqual([3]);
  });

  it('author: matches part of the name; alternatives of one kind are either', () => {
    expect(find('author:ana')).toEqual([3, 1]);
    expect(find('author:"Ben Okafor"')).toEqual([4, 2]);
    expect(find('author:ana author:carla')).toEqual([5, 3, 1]);
    expect(find('author:nobody')).toEqual([]);
  });

  it('category: and the dropdown (exact) both narrow', () => {
    expect(find('category:trends')).toEqual([5, 4]);
    expect(find('category:quant')).toEqual([3, 1]);
    expect(find('', 'Trends')).toEqual([5, 4]);
    expect(find('category:trends', 'Quantitative')).toEqual([]);
    expect(find('panels', 'Quantitative')).toEqual([1]);
  });

  it('tag: matches a whole tag, with or without #', () => {
    expect(find('tag:panels')).toEqual([4, 1]);
    expect(find('tag:#pricing')).toEqual([3]);
    expect(find('tag:pricing')).toEqual([3]);
    expect(find('tag:pan')).toEqual([]);
    expect(find('tag:diary tag:fraud')).toEqual([4, 2]);
  });

  it('is:mine is the signed-in member’s posts; without a member it finds nothing', () => {
    expect(find('is:mine', 'All', ANA)).toEqual([3, 1]);
    expect(find('is:mine', 'All', 'ANA@example.com')).toEqual([3, 1]);
    expect(find('is:mine', 'All', null)).toEqual([]);
  });

  it('kinds combine: every filter and the text must hold', () => {
    expect(find('author:ana tag:panels')).toEqual([1]);
    expect(find('panels author:ben category:trends')).toEqual([4]);
    expect(find('is:mine "mobile diary"', 'All', ANA)).toEqual([3]);
    expect(find('conjoint author:ben')).toEqual([]);
    expect(find('tag:panels author:ana author:ben "bot detection"')).toEqual([4]);
  });

  it('removing a chip widens the answer again', () => {
    const query = 'panels author:ana tag:weighting';
    const parsed = parseQuery(query);
    expect(find(query)).toEqual([1]);
    const withoutAuthor = removeChip(
      query,
      parsed.chips.find((chip) => chip.kind === 'author')!,
    );
    expect(withoutAuthor).toBe('panels tag:weighting');
    expect(find(withoutAuthor)).toEqual([1]);
    const onlyText = removeChip(withoutAuthor, parseQuery(withoutAuthor).chips[0]!);
    expect(onlyText).toBe('panels');
    expect(find(onlyText)).toEqual([4, 1]);
  });

  it('follows a change of author or tags (a rename, an edit)', () => {
    const index = seeded();
    index.upsert({ ...SEED[4]!, author: 'Carla Ana', tags: ['panels'] });
    expect(index.query(parseQuery('author:ana tag:panels'))).toEqual([5, 1]);
    index.remove(1);
    expect(index.query(parseQuery('author:ana tag:panels'))).toEqual([5]);
  });
});

describe('the search engine and client read the filters from IndexedDB', () => {
  it('the engine answers filters and is:mine for the member it is told', async () => {
    await storePosts(...SEED.map((post) => ({ ...post })));
    const engine = new SearchEngine(idbPostSource());
    expect(await engine.search('author:ana tag:panels', 'All')).toEqual([1]);
    expect(await engine.search('is:mine', 'All', BEN)).toEqual([4, 2]);
    expect(await engine.search('is:mine', 'All')).toEqual([]);
    engine.stop();
  });

  it('the engine follows a pulled post whose author or tags changed (a rename on another device)', async () => {
    await markConnected();
    const post = makePost({ id: 40, title: 'Moved', author: 'Old Name', authorEmail: ANA, tags: ['a'] });
    await applyPullPage(pullPage({ posts: [wirePost(post, { seq: 2 })], cursor: 2 }), ANA);
    const engine = new SearchEngine(idbPostSource());
    expect(await engine.search('author:"old name" tag:a', 'All')).toEqual([40]);
    await applyPullPage(pullPage({ posts: [wirePost({ ...post, author: 'New Name', tags: ['b'] }, { seq: 3 })], cursor: 3 }), ANA);
    await engine.refresh();
    expect(await engine.search('author:"old name"', 'All')).toEqual([]);
    expect(await engine.search('author:"new name" tag:b', 'All')).toEqual([40]);
    engine.stop();
  });

  it('the page’s client passes the member on (existing callers without one keep working)', async () => {
    await storePosts(...SEED.map((post) => ({ ...post })));
    expect(await searchApprovedPostIds('is:mine category:trends', 'All', BEN)).toEqual([4]);
    expect(await searchApprovedPostIds('panels')).toEqual([4, 1]);
  });
});
