// The page's watch on the posts table for search: Dexie's live query on the newest change number
// and on the list of removed posts fires when any tab adds, changes or removes a post (and on the
// replies' newest change number and count, when any tab writes or deletes a reply); the search
// worker (which has no Dexie) is then told to read what changed.

import { liveQuery } from 'dexie';
import { db } from '../storage/schema';
import { META_KEYS } from '../contracts';
import { readRemovedPosts } from '../storage/removed-list';

/** Calls `listener` whenever the newest change number of the posts, or the last removal, moves (in any tab); returns stop. */
export function watchPostChanges(listener: () => void): () => void {
  const newest = async () => [
    await db.posts.orderBy('rev').lastKey(),
    readRemovedPosts((await db.meta.get(META_KEYS.removedPosts))?.value).last,
    await db.replies.orderBy('rev').lastKey(),
    await db.replies.count(),
  ];
  const subscription = liveQuery(newest).subscribe({
    next: () => listener(),
    error: () => undefined,
  });
  return () => subscription.unsubscribe();
}
