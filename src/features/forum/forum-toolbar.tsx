import { lazy, Suspense, useEffect, useMemo, useRef, type RefObject } from 'react';
import { IconFilter, IconSearch } from '@tabler/icons-react';
import { SEARCH_MAX_CHARS } from '../../db/search/text';
import type { CategoryFilter } from '../../db/types';
import { useCategories } from '../../hooks/use-categories';
import { useInFirstFrame } from '../../hooks/first-frame-context';
import { isTypingTarget } from '../../lib/typing-target';
import { parseQuery, removeChip } from '../../shared/search-language';
import { SearchChips } from './search-chips';
import { tagKey } from '../../shared/post-rules';

// The "Follow" menu is react-bootstrap's Dropdown, not in the forum's first download: it loads when
// a category or a tag is chosen.
const FollowMenu = lazy(() => import('../../components/follow/follow-menu').then((module) => ({ default: module.FollowMenu })));

interface ForumToolbarProps {
  search: string;
  category: CategoryFilter;
  onSearchChange: (value: string) => void;
  onCategoryChange: (value: CategoryFilter) => void;
  /** A chip was removed: the query without it (kept in the address as a step of its own). */
  onQueryEdit: (value: string) => void;
  /** A member is signed in: a chosen category's view has its "Follow" menu. */
  signedIn?: boolean;
}

/** `/` focuses the search box: not while typing, not with Ctrl, Meta or Alt, not behind a dialog or the open menu. */
function useSlashFocus(input: RefObject<HTMLInputElement | null>) {
  // Not from the forum's first frame (inert): the key is the live toolbar's once it is there.
  const frame = useInFirstFrame();
  useEffect(() => {
    if (frame) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target as HTMLElement | null)) return;
      if (document.querySelector('.modal.show, .offcanvas.show, .navbar-collapse.show, [aria-modal="true"]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [input, frame]);
}

/**
 * Search box (`/` focuses it; its filters shown as removable chips), category dropdown and the
 * Filter button (which has no behaviour yet, per the spec); with a category chosen (or one tag
 * searched for), its "Follow" menu.
 */
export function ForumToolbar({ search, category, onSearchChange, onCategoryChange, onQueryEdit, signedIn = false }: ForumToolbarProps) {
  const input = useRef<HTMLInputElement>(null);
  useSlashFocus(input);
  const chips = useMemo(() => parseQuery(search).chips, [search]);
  // The view of one category (chosen in the menu) or of one tag (searched for alone) has its "Follow" menu.
  const tagChips = chips.filter((chip) => chip.kind === 'tag');
  const followed =
    category !== 'All'
      ? ({ kind: 'category', target: category } as const)
      : tagChips.length === 1 && chips.length === 1
        ? ({ kind: 'tag', target: tagKey(tagChips[0]!.value) } as const)
        : undefined;
  // The categories this member may see (issue 61), by name; the six until the device's copy is read.
  const categories = useCategories();
  return (
    <div className="card app-toolbar" role="search">
      <div className="card-body">
        <div className="row g-2 align-items-center">
          <div className="col-12 col-md">
            <label htmlFor="forum-search" className="visually-hidden">
              Search posts
            </label>
            <div className="input-group">
              <span className="input-group-text" aria-hidden="true">
                <IconSearch size={18} />
              </span>
              <input
                ref={input}
                id="forum-search"
                type="search"
                className="form-control"
                placeholder="Search posts..."
                value={search}
                maxLength={SEARCH_MAX_CHARS}
                autoComplete="off"
                enterKeyHint="search"
                onChange={(event) => onSearchChange(event.target.value)}
                aria-keyshortcuts="/"
              />
            </div>
          </div>
          <div className="col-8 col-md-auto">
            <label htmlFor="forum-category" className="visually-hidden">
              Category
            </label>
            <select
              id="forum-category"
              className="form-select"
              value={category}
              onChange={(event) => onCategoryChange(event.target.value as CategoryFilter)}
            >
              <option value="All">All</option>
              {categories.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </div>
          {signedIn && followed && (
            <div className="col-auto">
              <Suspense fallback={null}>
                <FollowMenu kind={followed.kind} target={followed.target} />
              </Suspense>
            </div>
          )}
          <div className="col col-md-auto">
            <button type="button" className="btn btn-outline-secondary w-100 app-filter">
              <IconFilter aria-hidden="true" size={18} />
              <span>Filter</span>
            </button>
          </div>
        </div>
        <SearchChips
          chips={chips}
          onRemove={(chip) => {
            onQueryEdit(removeChip(search, chip));
            input.current?.focus();
          }}
        />
      </div>
    </div>
  );
}
