import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { IconMoodEmpty } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import { FirstSyncPlaceholder } from '../../components/first-sync-placeholder';
import { useFirstSync } from '../../hooks/use-first-sync';
import type { CategoryFilter } from '../../db/types';
import { formatCount, plural } from '../../lib/format';
import { useSnapshotPage } from '../../boot/forum-snapshot-app';
import { useSeenInView } from '../../hooks/use-seen-in-view';
import { useAfterFirstPosts } from '../../hooks/use-after-first-posts';
import { describeQuery, isEmptyQuery, parseQuery } from '../../shared/search-language';
import { ForumPostGroup } from './forum-post-group';
import { NewPostsPill } from './new-posts-pill';
import type { OlderPosts as OlderPostsComponent } from './older-posts';
import { useApprovedPosts } from './use-approved-posts';
import { useNewPosts } from './use-new-posts';
import { useFollowFilter } from './use-follow-filter';
import { useUnreadCounts, useUnreadPostIds } from '../../hooks/use-reads';
import './forum.scss';

const loadSaved = () => import('../../db/saved/saved');

// The list's end past what the device holds (older pages from the server, or packed posts) shows only
// on a device that holds part of the forum: its code loads then (the forum page preloads it after the
// first posts), not on every device's way to the forum. Once loaded it renders as it is, with no
// Suspense fallback held back by React for up to 300 ms; which of the two a mount renders is decided
// once, so it is never remounted (and never loses its state) when the code arrives.
let ReadyOlderPosts: typeof OlderPostsComponent | undefined;
const loadOlderPosts = () => import('./older-posts').then((module) => (ReadyOlderPosts = module.OlderPosts));
const LazyOlderPosts = lazy(() => loadOlderPosts().then((OlderPosts) => ({ default: OlderPosts })));
/** Starts loading the list end's code (a device that holds part of the forum will show it). */
export const preloadOlderPosts = (): void => void loadOlderPosts().catch(() => undefined);

/** The list's end: nothing on a device that holds the whole forum (nor its code). */
function OlderPosts(props: ComponentProps<typeof OlderPostsComponent>) {
  return props.part ? <ListEnd {...props} /> : null;
}

function ListEnd(props: ComponentProps<typeof OlderPostsComponent>) {
  const [Shown] = useState(() => ReadyOlderPosts ?? LazyOlderPosts);
  return (
    <Suspense fallback={null}>
      <Shown {...props} />
    </Suspense>
  );
}

interface ForumPostListProps {
  search: string;
  category: CategoryFilter;
  /** The signed-in member. */
  email: string;
  /** The member's previous visit (what's new), undefined while it is read. */
  since: number | undefined;
  /** Whether this device holds part of the forum (undefined while it is read). */
  part: boolean | undefined;
  /** How many posts of the category this (local-only) device holds packed: counted, not listed until unpacked. */
  packed?: number;
}

/** The approved posts matching the search and category, newest first, paged; "New" marks and the pill. */
export function ForumPostList({ search, category, email, since, part, packed = 0 }: ForumPostListProps) {
  const query = search.trim();
  const parsed = useMemo(() => {
    const value = parseQuery(query);
    return isEmptyQuery(value) ? undefined : value;
  }, [query]);
  // `is:unread` narrows the search's results before they are paged: every page is full, the count right.
  const unreadOnly = useUnreadPostIds(parsed?.unread === true);
  const {
    items: listed,
    pages,
    hasMore,
    loadingMore,
    loadMore,
    total,
    stale,
    replies,
  } = useApprovedPosts(search, category, email, unreadOnly);
  const firstSync = useFirstSync();
  // The member's levels and read positions: muted posts leave the list, `is:unread` / `is:watching` narrow it.
  const keep = useFollowFilter(parsed, category);
  // The cards page by page: each page renders as one memoized group (ForumPostGroup); the flat list is the same rows.
  const groups = useMemo(() => (keep ? pages?.map((rows) => rows.filter(keep)) : undefined), [pages, keep]);
  const items = useMemo(() => groups?.flat(), [groups]);
  // Every post read so far left the list (muted, or not `is:watching`): the next page is read at once.
  const filteredOut = items !== undefined && items.length === 0 && (listed?.length ?? 0) > 0;
  useEffect(() => {
    if (filteredOut && hasMore && !loadingMore) loadMore();
  }, [filteredOut, hasMore, loadingMore, loadMore]);
  const unread = useUnreadCounts();
  // Which posts are saved: read once the first posts are painted (the Save buttons fill in then).
  const savedModule = useAfterFirstPosts(loadSaved);
  const saved = useLiveQuery(async () => (savedModule ? new Set(await savedModule.savedPostIds(email)) : undefined), [email, savedModule]);
  const fresh = useNewPosts(email, since);
  const unseen = useMemo(() => new Set(fresh.unseen), [fresh.unseen]);
  const list = useRef<HTMLDivElement>(null);
  useSnapshotPage(items !== undefined, !query && category === 'All' && !stale, items);

  const unseenOnScreen = items?.filter((post) => unseen.has(post.id)).map((post) => post.id) ?? [];
  useSeenInView(
    list,
    unseenOnScreen.length ? unseenOnScreen.map((id) => `article[data-post-id="${id}"]`).join(',') : 'none-new',
    'data-post-id',
    unseenOnScreen.join(','),
    (keys) => fresh.seen(keys.map(Number)),
  );

  // The pill: the first unseen new card, loading more pages until it is there; then it takes focus.
  const seeking = useRef(false);
  const showFirstNew = useCallback((): boolean => {
    const found = items?.find((post) => unseen.has(post.id));
    if (!found) return false;
    const card = list.current?.querySelector<HTMLElement>(`article[data-post-id="${found.id}"]`);
    card?.scrollIntoView({ block: 'center' });
    card?.focus({ preventScroll: true });
    return true;
  }, [items, unseen]);
  useEffect(() => {
    if (!seeking.current) return;
    if (showFirstNew() || !hasMore || unseen.size === 0) seeking.current = false;
    else if (!loadingMore) loadMore();
  }, [showFirstNew, hasMore, loadingMore, loadMore, unseen]);
  const onShowNew = () => {
    if (showFirstNew() || !hasMore) return;
    seeking.current = true;
    loadMore();
  };

  const browsing = !query && category === 'All';
  const pill = browsing && fresh.unseen.length > 0 && <NewPostsPill count={fresh.unseen.length} onShow={onShowNew} />;
  const summary = query ? (
    <p className="app-results" role="status">
      {stale || total === undefined ? 'Searching…' : `${plural(total, 'result')} for ${describeQuery(query)}`}
    </p>
  ) : (
    <p className="app-results">{total === undefined ? '\u00a0' : plural(total + packed, 'post')}</p>
  );
  // Every post read so far left the list (muted, or not `is:watching`) while more are held: it reads further (above).
  if (!items || (filteredOut && hasMore)) {
    return (
      <>
        {summary}
        <div className="app-list-placeholder">
          <PageLoading label={query ? 'Searching…' : 'Loading posts...'} />
        </div>
      </>
    );
  }
  // Only packed posts left in this category (local-only): they unpack at once, no "No posts found".
  if (items.length === 0 && !stale && !query && packed > 0)
    return (
      <>
        {summary}
        <OlderPosts category={category} email={email} part={part} packed={packed} onLoaded={loadMore} />
      </>
    );
  // A connected device whose first sync has not finished is loading its posts, not without them.
  if (items.length === 0 && !stale && !query && firstSync !== 'done')
    return (
      <>
        <p className="app-results">{'\u00a0'}</p>
        <div className="app-list-placeholder">
          <FirstSyncPlaceholder firstSync={firstSync} loading="Loading posts..." what="Posts" />
        </div>
      </>
    );
  if (items.length === 0 && !stale) {
    return (
      <>
        {summary}
        <EmptyState icon={<IconMoodEmpty size={40} />} title="No posts found">
          Try adjusting your search or filters.
        </EmptyState>
        {!query && <OlderPosts category={category} email={email} part={part} packed={packed} onLoaded={loadMore} />}
      </>
    );
  }
  return (
    <>
      {pill}
      {summary}
      <div ref={list} className={`app-post-list${stale ? ' is-stale' : ''}`} aria-busy={stale}>
        {groups?.map((posts, at) => (
          // Keyed by position: the first page stays the first group (its cards are kept) from one list to the next.
          <ForumPostGroup
            key={at}
            posts={posts}
            email={email}
            saved={saved}
            marked={fresh.marked}
            unread={unread}
            replies={replies}
            query={parsed}
          />
        ))}
      </div>
      {hasMore && (
        <LoadMore
          onLoadMore={loadMore}
          loading={loadingMore}
          label={
            total !== undefined && total > items.length ? `Load more posts (${formatCount(total - items.length)} more)` : 'Load more posts'
          }
        />
      )}
      {/* Past what this device holds: older pages from the server (a search asks it in ServerSearch). */}
      {!hasMore && !query && <OlderPosts category={category} email={email} part={part} packed={packed} onLoaded={loadMore} />}
    </>
  );
}
