import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_CATEGORIES, type Category } from '../shared/categories';
import { useInFirstFrame } from './first-frame-context';

/** The categories and the names of the groups the device holds, as one state (both change together). */
interface Held {
  categories: readonly Category[];
  groupNames: ReadonlyMap<string, string>;
}

const START: Held = { categories: DEFAULT_CATEGORIES, groupNames: new Map() };

/**
 * The categories the member may see, in their order, and the names of the groups this device holds,
 * live (issue 61: the admins rename, add, reorder and archive them); the six of the spec (and no
 * group) until the device's copy is read. Its module loads lazily, as the sync code does everywhere in the UI.
 */
function useHeld(): Held {
  const [held, setHeld] = useState<Held>(START);
  // The forum's first frame shows the six (a new browser holds no other) and loads nothing.
  const frame = useInFirstFrame();
  useEffect(() => {
    if (frame) return undefined;
    let stop: (() => void) | undefined;
    let live = true;
    import('../db/groups/category-list')
      .then(({ currentCategories, currentGroupNames, subscribeCategories }) => {
        if (!live) return;
        const read = () => setHeld({ categories: currentCategories(), groupNames: currentGroupNames() });
        stop = subscribeCategories(read);
        read();
      })
      .catch(() => undefined);
    return () => {
      live = false;
      stop?.();
    };
  }, [frame]);
  return held;
}

/** The categories the member may see, in their order, live; the six of the spec until the device's copy is read. */
export function useCategories(): readonly Category[] {
  return useHeld().categories;
}

/** A category's name by its id, live, as the forum shows it (its id when this device knows no other: the six's ids are their names). */
export function useCategoryNameOf(): (id: string) => string {
  const categories = useCategories();
  return useCallback((id: string) => categories.find((category) => category.id === id)?.name ?? id, [categories]);
}

/** Who may see a private category, as this device can say it: the names of the groups it holds (by name), and whether there are others. */
export interface PrivateAudience {
  names: string[];
  /** True when some of its groups are ones this device does not hold (never named). */
  others: boolean;
}

/** A category's audience when it is private (null: everyone sees it), from the groups' names `groupNames` holds. */
export function privateAudience(
  category: Pick<Category, 'see'> | undefined,
  groupNames: ReadonlyMap<string, string>,
): PrivateAudience | null {
  if (!category || category.see === null) return null;
  const names = category.see.flatMap((id) => {
    const name = groupNames.get(id);
    return name === undefined ? [] : [name];
  });
  return {
    names: [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    others: names.length < category.see.length,
  };
}

/**
 * A post's category as its card and page show it: its name by its id (its id when this device knows
 * no other: the six's ids are their names), and who sees it when it is private (issue 61).
 */
export function usePostCategory(id: string): { name: string; audience: PrivateAudience | null } {
  const { categories, groupNames } = useHeld();
  const category = categories.find((each) => each.id === id);
  return { name: category?.name ?? id, audience: privateAudience(category, groupNames) };
}
