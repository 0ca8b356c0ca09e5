import { useEffect, useState } from 'react';
import { onSearchIndexChange, searchApprovedPosts, type Found } from '../../db/search/client';
import { searchKey } from '../../db/search/text';
import type { CategoryFilter } from '../../db/types';
import { useAsyncValue } from '../../hooks/use-async-value';

export interface SearchResults {
  key: string;
  ids: number[];
  /** For a post found only through one of its replies: that reply's id. */
  replies: Record<number, string>;
  /** Grows with each answer, so the rows are re-read even when the key stays the same. */
  revision: number;
}

const NOTHING: Found = { ids: [], replies: {} };

/**
 * The ids of approved posts matching a search, from the search worker. Each answer belongs to
 * one query: an earlier query's late answer never replaces a newer one. Re-asks whenever the
 * index changes (a post was added, approved or rejected in any tab). Until the current query is
 * answered, the last answer stays available (its `key` tells which query it was for).
 */
export function useSearchResults(query: string, category: CategoryFilter, me: string | null = null): SearchResults | undefined {
  const [indexVersion, setIndexVersion] = useState(0);
  useEffect(() => onSearchIndexChange(() => setIndexVersion((version) => version + 1)), []);
  const answer = useAsyncValue(query ? () => searchApprovedPosts(query, category, me) : undefined, {
    key: searchKey(category, query),
    refresh: indexVersion,
    fallback: NOTHING,
  });
  return answer && { key: answer.key, ids: answer.value.ids, replies: answer.value.replies, revision: answer.revision };
}
