// The shape of the list of removed posts (removals.ts), readable without Dexie: the search
// worker reads it with plain IndexedDB.

/** The list as stored: `ids[i]` is removal number `last - ids.length + 1 + i`. */
export interface RemovedPosts {
  last: number;
  ids: number[];
}

/** How many removals the list keeps. */
export const MAX_REMOVALS_KEPT = 512;

/** Reads the list from a stored value (anything unexpected reads as none). */
export function readRemovedPosts(value: unknown): RemovedPosts {
  const list = value as Partial<RemovedPosts> | undefined;
  if (!list || typeof list.last !== 'number' || !Array.isArray(list.ids)) return { last: 0, ids: [] };
  return { last: list.last, ids: list.ids.filter((id): id is number => typeof id === 'number') };
}
