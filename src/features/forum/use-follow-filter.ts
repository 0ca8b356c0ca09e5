import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { followsOf } from '../../db/follows/follows';
import { useSignedInEmail } from '../../hooks/use-follows';
import { unreadCounts } from '../../db/follows/reads';
import type { CategoryFilter } from '../../db/types';
import { effectiveLevel, levelLookup, mutedOut } from '../../shared/follows';
import type { ParsedQuery } from '../../shared/search-language';
import { normalizeSearch } from '../../shared/search-text';
import { useCategoryNameOf } from '../../hooks/use-categories';

/** The fields of a post the member's levels read. */
interface FollowedPost {
  id: number;
  category: string;
  tags: readonly string[];
}

/**
 * Which posts the forum list shows by the member's levels and read positions: muted ones leave it
 * (mutedOut; the category chosen in the menu or named by `category:`, a tag named by `tag:`, brings
 * theirs back), and `is:unread` / `is:watching` narrow it. Undefined while the levels (and, for
 * `is:unread`, the counts) are read, so a muted post never shows for a moment.
 */
export function useFollowFilter(parsed: ParsedQuery | undefined, category: CategoryFilter): ((post: FollowedPost) => boolean) | undefined {
  const email = useSignedInEmail();
  const categoryName = useCategoryNameOf();
  const levelOf = useLiveQuery(async () => levelLookup(email ? await followsOf(email) : []), [email]);
  const unreadNeeded = parsed?.unread === true;
  const unread = useLiveQuery(async () => (unreadNeeded && email ? unreadCounts(email) : new Map<number, number>()), [email, unreadNeeded]);
  const keep = useCallback(
    (post: FollowedPost): boolean => {
      if (!levelOf) return false;
      const named = {
        category:
          category !== 'All'
            ? category
            : parsed?.categories.some((name) => normalizeSearch(categoryName(post.category)).includes(name))
              ? post.category
              : null,
        tags: parsed?.tags ?? [],
      };
      if (mutedOut(post, levelOf, named)) return false;
      if (parsed?.watching && effectiveLevel(post, levelOf) !== 'watching') return false;
      return !unreadNeeded || (unread?.get(post.id) ?? 0) > 0;
    },
    [levelOf, unread, unreadNeeded, category, parsed, categoryName],
  );
  return levelOf && unread ? keep : undefined;
}
