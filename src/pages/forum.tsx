import { useSearchParams } from 'react-router-dom';
import { ErrorBoundary } from '../components/error-boundary';
import { CATEGORY_FILTERS, type CategoryFilter } from '../db/types';
import { ForumPostList } from '../features/forum/forum-post-list';
import { ForumSidebar } from '../features/forum/forum-sidebar';
import { ForumStats } from '../features/forum/forum-stats';
import { ForumToolbar } from '../features/forum/forum-toolbar';
import { useDebouncedValue } from '../lib/use-debounced-value';

/** Typing waits this long before the search runs. */
const SEARCH_DEBOUNCE_MS = 200;

const toCategory = (value: string | null): CategoryFilter =>
  CATEGORY_FILTERS.includes(value as CategoryFilter) ? (value as CategoryFilter) : 'All';

/** The forum: hero, stats, search and category filter, the approved posts and the sidebar. */
export function ForumPage() {
  // The search and category live in the URL, so a reload or a shared link keeps them.
  const [params, setParams] = useSearchParams();
  const searchInput = params.get('q') ?? '';
  const category = toCategory(params.get('category'));
  const search = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);

  const update = (key: 'q' | 'category', value: string, empty: string) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === empty) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  };

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
        <ForumToolbar
          search={searchInput}
          category={category}
          onSearchChange={(value) => update('q', value, '')}
          onCategoryChange={(value) => update('category', value, 'All')}
        />
        <div className="row g-4">
          <section className="col-lg-8" aria-labelledby="posts-title">
            <h2 id="posts-title" className="visually-hidden">
              Posts
            </h2>
            <ErrorBoundary area="the posts">
              <ForumPostList search={search} category={category} />
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
