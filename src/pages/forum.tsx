import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorBoundary } from '../components/error-boundary';
import { cleanSearchQuery } from '../db/search/text';
import { isCategory, type CategoryFilter } from '../db/types';
import { ForumPostList } from '../features/forum/forum-post-list';
import { ForumSidebar } from '../features/forum/forum-sidebar';
import { ForumStats } from '../features/forum/forum-stats';
import { ForumToolbar } from '../features/forum/forum-toolbar';
import { useDebouncedValue } from '../hooks/use-debounced-value';

/** The address follows the typing once it pauses this long (the search itself runs on every key). */
const ADDRESS_DEBOUNCE_MS = 300;

const toCategory = (value: string | null): CategoryFilter => (isCategory(value) ? value : 'All');

/** The forum: hero, stats, search and category filter, the approved posts and the sidebar. */
export function ForumPage() {
  // The search runs on every keystroke (the latest answer wins, see useSearchResults); the
  // settled search and the category are copied into the address, so a reload or a shared link
  // keeps them.
  const [params, setParams] = useSearchParams();
  const [searchInput, setSearchInput] = useState(() => cleanSearchQuery(params.get('q') ?? ''));
  const [category, setCategory] = useState(() => toCategory(params.get('category')));
  const settled = useDebouncedValue(searchInput, ADDRESS_DEBOUNCE_MS);

  useEffect(() => {
    const next = new URLSearchParams(params);
    if (settled) next.set('q', settled);
    else next.delete('q');
    if (category !== 'All') next.set('category', category);
    else next.delete('category');
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [settled, category, params, setParams]);

  return (
    <>
      <section className="app-forum-hero" aria-labelledby="forum-title">
        <div className="container">
          <h1 id="forum-title">Community Forum</h1>
          <p className="app-hero-lead">Ask questions, share what you learned and see how other researchers tackle the same problems.</p>
          <ForumStats />
        </div>
      </section>
      <div className="container app-forum-body">
        <ForumToolbar search={searchInput} category={category} onSearchChange={setSearchInput} onCategoryChange={setCategory} />
        <div className="row g-4">
          <section className="col-lg-8" aria-labelledby="posts-title">
            <h2 id="posts-title" className="visually-hidden">
              Posts
            </h2>
            <ErrorBoundary area="the posts">
              <ForumPostList search={searchInput} category={category} />
            </ErrorBoundary>
          </section>
          <aside className="col-lg-4" aria-label="Community highlights">
            <ForumSidebar />
          </aside>
        </div>
      </div>
    </>
  );
}
