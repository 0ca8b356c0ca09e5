// The page's watch on the posts table for search: Dexie's live query on the newest change number
// fires when any tab adds a post or changes a status; the search worker (which has no Dexie) is
// then told to read what changed.

import { liveQuery } from 'dexie';
import { db } from '../core/schema';

/** Calls `listener` whenever the newest change number of the posts moves (in any tab); returns stop. */
export function watchPostChanges(listener: () => void): () => void {
  const subscription = liveQuery(() => db.posts.orderBy('rev').lastKey()).subscribe({
    next: () => listener(),
    error: () => undefined,
  });
  return () => subscription.unsubscribe();
}
