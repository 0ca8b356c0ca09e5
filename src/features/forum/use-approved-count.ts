import { useEffect, useState } from 'react';
import { countApprovedPosts } from '../../db/posts/posts';
import { onSearchIndexChange } from '../../db/search/client';
import type { CategoryFilter } from '../../db/types';
import { useAsyncValue } from '../../hooks/use-async-value';

/**
 * How many approved posts a category holds. Counted again when the search index reports that
 * posts were added, approved or rejected (in any tab), but not on every like: counting 100,000
 * index entries after each like in another tab would slow that like's arrival here.
 */
export function useApprovedCount(category: CategoryFilter, enabled: boolean): number | undefined {
  const [version, setVersion] = useState(0);
  useEffect(() => onSearchIndexChange(() => setVersion((value) => value + 1)), []);
  const answer = useAsyncValue(enabled ? () => countApprovedPosts(category) : undefined, { key: category, refresh: version });
  return answer?.key === category ? answer.value : undefined;
}
