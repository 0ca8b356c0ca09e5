// The categories this device's member may see, and the names of the groups it holds, followed live
// (one Dexie live query for every reader on the page): the forum's Category select, each card's
// category name and its "Private" badge read them, so an admin's rename shows on every screen as soon
// as the pull brings it. Loaded lazily by hooks/use-categories.ts: the forum's first paint shows the
// six of the spec without loading it.
import { liveQuery } from 'dexie';
import { DEFAULT_CATEGORIES, type Category } from '../../shared/categories';
import { db } from '../storage/schema';
import { listCategories } from './groups';

let current: readonly Category[] = DEFAULT_CATEGORIES;
let groupNames: ReadonlyMap<string, string> = new Map();
const listeners = new Set<() => void>();
let subscription: { unsubscribe(): void } | undefined;

/** The categories now (the six until the first read). */
export const currentCategories = (): readonly Category[] => current;

/**
 * The names of the groups this device holds, by id (an admin's device: every group; a member's: the
 * groups they are in). A group it does not hold has no name here, and none may be shown for it.
 */
export const currentGroupNames = (): ReadonlyMap<string, string> => groupNames;

/** Calls `listener` whenever the categories or the groups' names change; returns the unsubscribe (the live query stops with its last listener). */
export function subscribeCategories(listener: () => void): () => void {
  listeners.add(listener);
  subscription ??= liveQuery(async () => ({
    categories: await listCategories(),
    names: new Map((await db.groups.toArray()).map((group) => [group.id, group.name])),
  })).subscribe({
    next(list) {
      current = list.categories;
      groupNames = list.names;
      for (const each of listeners) each();
    },
    error: () => undefined,
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    subscription?.unsubscribe();
    subscription = undefined;
  };
}
