import { IconChecks } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import { PendingPost } from './pending-post';
import { usePendingPosts } from './use-pending-posts';

/** The review queue; empty means all caught up. */
export function PendingQueue() {
  const { items, hasMore, loadingMore, loadMore } = usePendingPosts();
  if (!items) return <PageLoading label="Loading pending posts..." />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<IconChecks size={40} />} title="All caught up!">
        There are no pending posts to review.
      </EmptyState>
    );
  }
  return (
    <>
      <div className="app-post-list">
        {items.map((post) => (
          <PendingPost key={post.id} post={post} />
        ))}
      </div>
      {hasMore && <LoadMore onLoadMore={loadMore} loading={loadingMore} label="Load more pending posts" />}
    </>
  );
}
