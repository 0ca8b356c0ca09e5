// The posts that left this device (deleted here, removed by the server, moved to another id), as
// one numbered list in meta: the search worker drops them from its index (it follows `rev`, which
// a removed row no longer has), and the `posts` copy's import never brings them back from an
// older tab's or build's stale copy. Bounded: a follower that fell behind it reloads instead.
// Its shape is in removed-list.ts (no Dexie there, for the worker).

import { META_KEYS } from '../contracts';
import { db } from './schema';
import { MAX_REMOVALS_KEPT, readRemovedPosts } from './removed-list';

const KEY = META_KEYS.removedPosts;

/** Records that these posts left IndexedDB; call it inside the readwrite transaction (with meta) that removed them. */
export async function noteRemovedPosts(ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = readRemovedPosts((await db.meta.get(KEY))?.value);
  await db.meta.put({ key: KEY, value: { last: list.last + ids.length, ids: [...list.ids, ...ids].slice(-MAX_REMOVALS_KEPT) } });
}

/** The ids of the posts removed lately (at most MAX_REMOVALS_KEPT). */
export async function recentlyRemovedPosts(): Promise<Set<number>> {
  return new Set(readRemovedPosts((await db.meta.get(KEY))?.value).ids);
}
