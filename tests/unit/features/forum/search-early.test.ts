// The forum asks the search worker at the keystroke (askSearchEarly), before React renders the page;
// the list's own question, the same one, then takes that answer: one search, not two. Once the index
// changes, the same question is searched afresh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchApprovedPostIds, stopSearchClient } from '../../../../src/db/search/client';
import { SearchEngine } from '../../../../src/db/search/engine';
import { approvePost } from '../../../../src/db/posts/posts';
import { askSearchEarly } from '../../../../src/features/forum/use-approved-posts';
import { makePost, signInAsAdmin, storePosts } from '../../factories';

afterEach(() => {
  stopSearchClient();
  vi.restoreAllMocks();
});

const seed = () =>
  storePosts(
    makePost({ id: 1, title: 'Panel weighting', category: 'Quantitative' }),
    makePost({ id: 2, title: 'Diary studies', category: 'Qualitative' }),
    makePost({ id: 3, title: 'Panel fraud', category: 'Trends', status: 'pending' }),
  );

describe('askSearchEarly and the page’s search client', () => {
  it('the keystroke’s question and the list’s same question are one search', async () => {
    await seed();
    const searches = vi.spyOn(SearchEngine.prototype, 'find');
    // The box's raw text, as typed: the list asks its cleaned, trimmed query.
    askSearchEarly('  PANEL ', 'All', 'ana@example.com');
    expect(await searchApprovedPostIds('PANEL', 'All', 'ana@example.com')).toEqual([1]);
    expect(searches).toHaveBeenCalledTimes(1);
    // Another category, member or query is another question.
    expect(await searchApprovedPostIds('PANEL', 'Trends', 'ana@example.com')).toEqual([]);
    expect(await searchApprovedPostIds('PANEL', 'Trends', 'ben@example.com')).toEqual([]);
    expect(await searchApprovedPostIds('diary', 'Trends', 'ben@example.com')).toEqual([]);
    expect(searches).toHaveBeenCalledTimes(4);
    // An empty box asks nothing.
    askSearchEarly('   ', 'All', 'ana@example.com');
    expect(searches).toHaveBeenCalledTimes(4);
  });

  it('once the index changes, the same question is searched again and finds what changed', async () => {
    await seed();
    const searches = vi.spyOn(SearchEngine.prototype, 'find');
    askSearchEarly('panel', 'All', null);
    expect(await searchApprovedPostIds('panel', 'All', null)).toEqual([1]);
    signInAsAdmin();
    await approvePost(3);
    // Were the first answer kept past the change, this would stay [1].
    await vi.waitFor(async () => expect(await searchApprovedPostIds('panel', 'All', null)).toEqual([3, 1]));
    expect(searches.mock.calls.length).toBeGreaterThan(1);
  });
});
