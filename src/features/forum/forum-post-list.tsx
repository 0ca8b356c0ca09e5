import { IconMoodEmpty } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import type { CategoryFilter } from '../../db/types';
import { ForumPost } from './forum-post';
import { useApprovedPosts } from './use-approved-posts';

/** The approved posts matching the search and category, newest first, paged. */
export function ForumPostList({ search, category }: { search: string; category: CategoryFilter }) {
  const { items, hasMore, loadingMore, loadMore } = useApprovedPosts(search, category);
  if (!items) return <PageLoading label="Loading posts..." />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<IconMoodEmpty size={40} />} title="No posts found">
        Try adjusting your search or filters.
      </EmptyState>
    );
  }
  return (
    <>
      <div className="app-post-list">
        {items.map((post) => (
          <ForumPost key={post.id} post={post} />
        ))}
      </div>
      {hasMore && <LoadMore onLoadMore={loadMore} loading={loadingMore} label="Load more posts" />}
    </>
  );
}
