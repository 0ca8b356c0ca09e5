import { useEffect, useState } from 'react';
import { latestOnly } from '../../lib/latest-only';
import { onSearchIndexChange, searchApprovedPostIds } from '../../db/search/client';
import { searchKey } from '../../db/search/text';
import type { CategoryFilter } from '../../db/types';

export interface SearchResults {
  key: string;
  ids: number[];
  /** Grows with each answer, so the rows are re-read even when the key stays the same. */
  revision: number;
}

/**
 * The ids of approved posts matching a search, from the search worker. Each answer belongs to
 * one query: an earlier query's late answer never replaces a newer one. Re-asks whenever the
 * index changes (a post was added, approved or rejected in any tab). Until the current query is
 * answered, the last answer stays available (its `key` tells which query it was for).
 */
export function useSearchResults(query: string, category: CategoryFilter): SearchResults | undefined {
  const key = searchKey(category, query);
  const [results, setResults] = useState<SearchResults | undefined>(undefined);
  const [indexVersion, setIndexVersion] = useState(0);
  const [answers] = useState(latestOnly);

  useEffect(() => onSearchIndexChange(() => setIndexVersion((version) => version + 1)), []);

  useEffect(() => {
    if (!query) {
      answers.cancel();
      return;
    }
    answers.run(
      searchApprovedPostIds(query, category),
      (ids) => setResults((previous) => ({ key, ids, revision: (previous?.revision ?? 0) + 1 })),
      () => setResults((previous) => ({ key, ids: [], revision: (previous?.revision ?? 0) + 1 })),
    );
  }, [answers, key, query, category, indexVersion]);
  useEffect(() => () => answers.cancel(), [answers]);

  return results;
}
