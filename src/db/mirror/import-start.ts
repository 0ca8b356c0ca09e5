// The start's look at the `posts` copy, without the import's code: absent, or the copy this build
// last wrote (every start after the first), it needs nothing more; anything else (an older build's
// copy, another tab's) loads import.ts and merges it. The merge (posts/merge.ts and the rest, about
// 2 KB gzip) is then not fetched to show the forum.

import { POSTS_KEY } from '../contracts';
import { readLocal } from '../storage/local-store';
import type { MergeProgress } from '../posts/merge';
import { isOwnCopy, NOTHING_IMPORTED, type LegacyImportResult } from './read';

export { NOTHING_IMPORTED, type LegacyImportResult };

/** importLegacyPosts (import.ts), its code loaded only when the copy holds something to bring in (this build's own copy is known by its last character, without a hash). */
export async function importLegacyPostsAtStart(onProgress?: (progress: MergeProgress) => void): Promise<LegacyImportResult> {
  const raw = readLocal(POSTS_KEY);
  if (typeof raw !== 'string') return NOTHING_IMPORTED;
  if (await isOwnCopy(raw)) return { ...NOTHING_IMPORTED, present: true };
  return (await import('./import')).importLegacyCopy(raw, onProgress);
}

/** applyExternalPostsChange (import.ts), loaded when another tab or an older build first writes the copy. */
export async function applyExternalPostsChangeLater(
  oldValue: string | null,
  newValue: string | null,
  markStale: () => void,
): Promise<void> {
  return (await import('./import')).applyExternalPostsChange(oldValue, newValue, markStale);
}
