import { IconFilter, IconSearch } from '@tabler/icons-react';
import { SEARCH_MAX_CHARS } from '../../db/search/text';
import { CATEGORY_FILTERS, type CategoryFilter } from '../../db/types';

interface ForumToolbarProps {
  search: string;
  category: CategoryFilter;
  onSearchChange: (value: string) => void;
  onCategoryChange: (value: CategoryFilter) => void;
}

/** Search box, category dropdown and the Filter button (which has no behaviour yet, per the spec). */
export function ForumToolbar({ search, category, onSearchChange, onCategoryChange }: ForumToolbarProps) {
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
                id="forum-search"
                type="search"
                className="form-control"
                placeholder="Search posts..."
                value={search}
                maxLength={SEARCH_MAX_CHARS}
                autoComplete="off"
                enterKeyHint="search"
                onChange={(event) => onSearchChange(event.target.value)}
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
              {CATEGORY_FILTERS.map((option) => (
                <option key={option} value={option}>
                  {option === 'All' ? 'All' : option}
                </option>
              ))}
            </select>
          </div>
          <div className="col-4 col-md-auto">
            <button type="button" className="btn btn-outline-secondary w-100 app-filter">
              <IconFilter aria-hidden="true" size={18} />
              <span>Filter</span>
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
