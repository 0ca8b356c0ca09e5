import { useEffect, useState } from 'react';
import { DEFAULT_CATEGORIES, type Category } from '../shared/categories';

/**
 * The categories the member may see, in their order, live (issue 61: the admins rename, add, reorder
 * and archive them); the six of the spec until the device's copy is read. Its module loads lazily,
 * as the sync code does everywhere in the UI.
 */
export function useCategories(): readonly Category[] {
  const [categories, setCategories] = useState<readonly Category[]>(DEFAULT_CATEGORIES);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    import('../db/groups/category-list')
      .then(({ currentCategories, subscribeCategories }) => {
        if (!live) return;
        stop = subscribeCategories(() => setCategories(currentCategories()));
        setCategories(currentCategories());
      })
      .catch(() => undefined);
    return () => {
      live = false;
      stop?.();
    };
  }, []);
  return categories;
}

/** A category's name by its id (its id when this device knows no other: the six's ids are their names). */
export function useCategoryName(id: string): string {
  const categories = useCategories();
  return categories.find((category) => category.id === id)?.name ?? id;
}
