// Categories the admins shape (issue 61, item 2): the spec's six are rows whose ids are their spec
// names ('Quantitative', …), so a post's `category` (a category's id) and an older build's copy need
// no rewrite, and a rename changes only the row's name. New ones get a UUID. Each says who sees it
// (`see`: null is everyone, else the ids of the groups that do) and who posts in it (`post`: null is
// everyone who sees it, else those groups' members), and may be archived (its posts stay readable,
// it takes no new ones). Admins see and post in every category.
import { CATEGORIES } from './post-rules';
import { blank, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';
import { hasInvisible, nameKey } from './names';

export const CATEGORY_LIMITS = {
  name: 60,
  description: 500,
  /** The groups one category may name (who sees it, who posts in it). */
  groups: 50,
  /** A category's id: the spec's names, or a UUID. */
  id: 100,
} as const;

export interface Category {
  id: string;
  name: string;
  description: string;
  /** Its place in the lists (smallest first; ties by name). */
  position: number;
  archived: boolean;
  /** Who sees it: null, everyone; else the ids of the groups whose members do (and admins). */
  see: string[] | null;
  /** Who posts in it: null, everyone who sees it; else the ids of the groups whose members do (and admins). */
  post: string[] | null;
}

/** The six of the spec, as every server starts with them and a local-only device keeps them. */
export const DEFAULT_CATEGORIES: readonly Category[] = CATEGORIES.map((name, position) => ({
  id: name,
  name,
  description: '',
  position,
  archived: false,
  see: null,
  post: null,
}));

/** Who asks: their role and the ids of the groups they are in. */
export interface CategoryViewer {
  role: string;
  groups: readonly string[];
}

const inAny = (groups: readonly string[] | null, viewer: CategoryViewer) =>
  groups === null || groups.some((id) => viewer.groups.includes(id));

/** True when `viewer` may see the category (and the posts in it). */
export function maySeeCategory(category: Pick<Category, 'see'>, viewer: CategoryViewer): boolean {
  return viewer.role === 'admin' || inAny(category.see, viewer);
}

/** True when `viewer` may post in the category: they see it, it is not archived, and they are among who posts. */
export function mayPostIn(category: Pick<Category, 'see' | 'post' | 'archived'>, viewer: CategoryViewer): boolean {
  if (category.archived) return false;
  return viewer.role === 'admin' || (inAny(category.see, viewer) && inAny(category.post, viewer));
}

/** The categories in their order (position, then name). */
export const inCategoryOrder = <T extends Pick<Category, 'position' | 'name'>>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.position - b.position || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));

/** The categories `held` on a device over the six defaults (a held row of a default's id replaces it). */
export function withDefaults<T extends Category>(held: readonly T[]): Category[] {
  const byId = new Map<string, Category>(DEFAULT_CATEGORIES.map((category) => [category.id, category]));
  for (const category of held) byId.set(category.id, category);
  return inCategoryOrder([...byId.values()]);
}

/** The key two categories' names are compared by (two never share one). */
export const categoryNameKey = (name: string): string => nameKey(name);

/** A category's name: not blank, within CATEGORY_LIMITS.name, storable, without hidden characters. */
export function validateCategoryName(name: string): Problem | null {
  if (blank(name)) return problem('Missing Information', 'Give the category a name.');
  const wrong = tooLong('Name', name.trim(), CATEGORY_LIMITS.name) ?? unstorableText('Name', name);
  if (wrong) return wrong;
  if (hasInvisible(name.trim())) {
    return problem(
      'Name cannot be used',
      'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
    );
  }
  if (nameKey(name) === 'all') return problem('Name cannot be used', '“All” is the forum’s name for every category. Choose another one.');
  return null;
}

/** A category's description (optional): within CATEGORY_LIMITS.description, storable, without hidden characters. */
export function validateCategoryDescription(description: string): Problem | null {
  return (
    tooLong('Description', description.trim(), CATEGORY_LIMITS.description) ??
    unstorableText('Description', description) ??
    hiddenText('Description', description, 'lines')
  );
}

export const CATEGORY_NAME_TAKEN = { title: 'Name taken', message: 'Another category already has this name. Choose another one.' };
export const CATEGORY_NOT_FOUND = { title: 'Category removed', message: 'This category no longer exists.' };
/** What a new post or an edit moving a post into an archived category is told. */
export const CATEGORY_ARCHIVED = { title: 'Category archived', message: 'This category is archived and takes no new posts.' };
