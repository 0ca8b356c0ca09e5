// The categories this device's member may see, followed live (one Dexie live query for every
// reader on the page): the forum's Category select and each card's category name read them, so an
// admin's rename shows on every screen as soon as the pull brings it. Loaded lazily by
// hooks/use-categories.ts: the forum's first paint shows the six of the spec without loading it.
import { liveQuery } from 'dexie';
import { DEFAULT_CATEGORIES, type Category } from '../../shared/categories';
import { listCategories } from './groups';

let current: readonly Category[] = DEFAULT_CATEGORIES;
const listeners = new Set<() => void>();
let subscription: { unsubscribe(): void } | undefined;

/** The categories now (the six until the first read). */
export const currentCategories = (): readonly Category[] => current;

/** Calls `listener` whenever the categories change; returns the unsubscribe (the live query stops with its last listener). */
export function subscribeCategories(listener: () => void): () => void {
  listeners.add(listener);
  subscription ??= liveQuery(() => listCategories()).subscribe({
    next(list) {
      current = list;
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
