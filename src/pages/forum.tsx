import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useLiveQuery } from 'dexie-react-hooks';
import { ErrorBoundary } from '../components/error-boundary';
import { cleanSearchQuery } from '../db/search/text';
import { isCategory, type CategoryFilter } from '../db/types';
import { useAuth } from '../features/auth/auth-context';
import { ForumPostList, preloadOlderPosts } from '../features/forum/forum-post-list';
import { ForumSidebar } from '../features/forum/forum-sidebar';
import { ForumLayout } from '../features/forum/forum-layout';
import { useLevelOf } from '../hooks/use-follows';
import { ForumToolbar } from '../features/forum/forum-toolbar';
import { KeptDrafts } from '../components/kept-drafts';
import { askSearchEarly } from '../features/forum/use-approved-posts';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { useVisitSince } from '../hooks/use-visit';
import { afterFirstPosts } from '../db/storage/idle';
import { holdsPart } from '../db/sync/holds-part';
import { readPackedCounts, type PackedCounts } from '../db/posts/packed-counts';
import { isConnectedDevice } from '../db/ops/sync-meta';
import { paths } from '../config/paths';
import { isEmptyQuery, parseQuery } from '../shared/search-language';
import type { ServerSearch as ServerSearchComponent } from '../features/forum/server-search';

// Searching the server is offered on a device that holds part of the forum, with a query: its code
// loads once the first posts are painted (a first search then waits for no download).
// Once loaded it renders as it is: a lazy component suspends at its first render, and React holds a
// revealed Suspense boundary back by up to 300 ms, which the first search would wait for.
let ReadyServerSearch: typeof ServerSearchComponent | undefined;
const loadServerSearch = () =>
  import('../features/forum/server-search').then((module) => {
    ReadyServerSearch = module.ServerSearch;
    return module;
  });
const LazyServerSearch = lazy(() => loadServerSearch().then((module) => ({ default: module.ServerSearch })));
const preloadServerSearch = () => {
  preloadOlderPosts();
  void Promise.all([loadServerSearch(), import('../sync/server-reads')]).catch(() => undefined);
};

/** The address follows the typing once it pauses this long (the search itself runs on every key). */
const ADDRESS_DEBOUNCE_MS = 300;

/** An admins' category's id (issue 61): a UUID. */
const CATEGORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const toCategory = (value: string | null): CategoryFilter =>
  isCategory(value) || (value !== null && CATEGORY_ID.test(value)) ? value! : 'All';

/** The forum: hero, stats, search and category filter, the approved posts and the sidebar. */
export function ForumPage() {
  // The search runs on every keystroke (the latest answer wins, see useSearchResults); the
  // settled search and the category are copied into the address, so a reload, Back or a shared
  // link restores them. Typing replaces the address; a removed chip or another category is a
  // step of its own (Back undoes it).
  const { user } = useAuth();
  const email = user?.email ?? '';
  const since = useVisitSince(user?.email ?? null);
  const levelOf = useLevelOf();
  const [params, setParams] = useSearchParams();
  const [searchInput, setSearchInput] = useState(() => cleanSearchQuery(params.get('q') ?? ''));
  const [category, setCategory] = useState(() => toCategory(params.get('category')));
  const settled = useDebouncedValue(searchInput, ADDRESS_DEBOUNCE_MS);
  // Whether this device holds part of the forum (read once here, for the server search and the list's
  // end: a search typed then asks the server without waiting for a read of its own, which a busy
  // IndexedDB, the search worker starting, can delay).
  const remote = useLiveQuery(() => holdsPart(), []);
  // A local-only device holds its long tail packed (db/posts/packed.ts): the list's end and a
  // search reach it the same way a connected device reaches the server.
  // (A device that connected later leaves them packed and out of its counts: the server's forum is another.)
  const packedCounts = useLiveQuery(async (): Promise<PackedCounts> => ((await isConnectedDevice()) ? {} : readPackedCounts()), []);
  const packed = (packedCounts?.All ?? 0) > 0;
  const part = remote === undefined ? undefined : remote || packed;
  useEffect(() => (email && part ? afterFirstPosts(2_000, preloadServerSearch) : undefined), [email, part]);
  /** The address this page last wrote: any other one came from Back, Forward or a link. */
  const written = useRef(params.toString());
  /** What such an address asked for, until the state (and the debounced search) has caught up. */
  const restoring = useRef<{ q: string; category: CategoryFilter } | null>(null);
  const pushNext = useRef(false);

  /** Takes the search and category of `address` when it is not the one this page last wrote. */
  const follow = useCallback((address: URLSearchParams) => {
    if (address.toString() === written.current) return;
    written.current = address.toString();
    const restored = { q: cleanSearchQuery(address.get('q') ?? ''), category: toCategory(address.get('category')) };
    restoring.current = restored;
    setSearchInput(restored.q);
    setCategory(restored.category);
  }, []);
  useEffect(() => follow(params), [follow, params]);
  // Back or Forward in the moment this page writes a step of its own (a removed chip, a category):
  // the router's update is a transition, so it may draw only where the browser landed, which is
  // the address it drew before, and then the address above never changes. The browser's own event
  // says where it landed.
  useEffect(() => {
    const onPopState = () => {
      if (location.pathname === paths.forum) follow(new URLSearchParams(location.search));
    };
    addEventListener('popstate', onPopState);
    return () => removeEventListener('popstate', onPopState);
  }, [follow]);

  useEffect(() => {
    const restored = restoring.current;
    if (restored) {
      if (settled !== restored.q || searchInput !== restored.q || category !== restored.category) return;
      restoring.current = null;
    }
    // Still typing: the address waits for the settled value.
    if (settled !== searchInput) return;
    const next = new URLSearchParams(params);
    if (settled) next.set('q', settled);
    else next.delete('q');
    if (category !== 'All') next.set('category', category);
    else next.delete('category');
    if (next.toString() === params.toString()) return;
    written.current = next.toString();
    setParams(next, { replace: !pushNext.current });
    pushNext.current = false;
  }, [settled, searchInput, category, params, setParams]);

  const query = searchInput.trim();
  const parsed = useMemo(() => {
    const value = parseQuery(query);
    return isEmptyQuery(value) ? undefined : value;
  }, [query]);

  return (
    <ForumLayout
      drafts={email && <KeptDrafts email={email} />}
      toolbar={
        <ForumToolbar
          search={searchInput}
          category={category}
          signedIn={Boolean(email)}
          onSearchChange={(value) => {
            // The member's own edit ends any restore from the address (its value is never reached again).
            restoring.current = null;
            askSearchEarly(value, category, email);
            setSearchInput(value);
          }}
          onCategoryChange={(value) => {
            restoring.current = null;
            pushNext.current = true;
            askSearchEarly(searchInput, value, email);
            setCategory(value);
          }}
          onQueryEdit={(value) => {
            restoring.current = null;
            pushNext.current = true;
            askSearchEarly(value, category, email);
            setSearchInput(value);
          }}
        />
      }
      sidebar={<ForumSidebar levelOf={levelOf} />}
    >
      <ErrorBoundary area="the posts">
        {email && parsed && part && (
          <Suspense fallback={null}>
            {ReadyServerSearch ? (
              <ReadyServerSearch query={query} category={category} parsed={parsed} email={email} packed={packed} />
            ) : (
              <LazyServerSearch query={query} category={category} parsed={parsed} email={email} packed={packed} />
            )}
          </Suspense>
        )}
        <ForumPostList
          search={searchInput}
          category={category}
          email={email}
          since={since}
          part={part}
          packed={packedCounts?.[category] ?? 0}
        />
      </ErrorBoundary>
    </ForumLayout>
  );
}
