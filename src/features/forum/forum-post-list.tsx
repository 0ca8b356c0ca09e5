import { IconMoodEmpty } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import type { CategoryFilter } from '../../db/types';
import { formatCount, plural } from '../../lib/format';
import { useForumSnapshot } from '../../boot/forum-snapshot-app';
import { ForumPost } from './forum-post';
import { useApprovedPosts } from './use-approved-posts';

/** The approved posts matching the search and category, newest first, paged. */
export function ForumPostList({ search, category }: { search: string; category: CategoryFilter }) {
  const { items, hasMore, loadingMore, loadMore, total, stale } = useApprovedPosts(search, category);
  const query = search.trim();
  useForumSnapshot(items !== undefined, !query && category === 'All' && !stale, items);
  const summary = query ? (
    <p className="app-results" role="status">
      {stale || total === undefined ? 'Searching…' : `${plural(total, 'result')} for “${query}”`}
    </p>
  ) : (
    <p className="app-results">{total === undefined ? '\u00a0' : plural(total, 'post')}</p>
  );
  if (!items) {
    return (
      <>
        {summary}
        <div className="app-list-placeholder">
          <PageLoading label={query ? 'Searching…' : 'Loading posts...'} />
        </div>
      </>
    );
  }
  if (items.length === 0 && !stale) {
    return (
      <>
        {summary}
        <EmptyState icon={<IconMoodEmpty size={40} />} title="No posts found">
          Try adjusting your search or filters.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {summary}
      <div className={`app-post-list${stale ? ' is-stale' : ''}`} aria-busy={stale}>
        {items.map((post) => (
          <ForumPost key={post.id} post={post} />
        ))}
      </div>
      {hasMore && (
        <LoadMore
          onLoadMore={loadMore}
          loading={loadingMore}
          label={total !== undefined ? `Load more posts (${formatCount(total - items.length)} more)` : 'Load more posts'}
        />
      )}
    </>
  );
}
