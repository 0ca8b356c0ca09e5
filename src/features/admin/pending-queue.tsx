import { useCallback, useEffect, useRef } from 'react';
import { IconChecks } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import { PendingPost } from './pending-post';
import { usePendingPosts } from './use-pending-posts';

/** The review queue; empty means all caught up. */
export function PendingQueue() {
  const { items, hasMore, loadingMore, loadMore } = usePendingPosts();
  const list = useRef<HTMLDivElement>(null);
  // Where the reviewed card was, so focus can move on to the next one when it leaves the queue.
  const reviewedAt = useRef<number | null>(null);

  const onReviewing = useCallback((postId: number) => {
    const cards = [...(list.current?.querySelectorAll('article') ?? [])];
    reviewedAt.current = cards.findIndex((card) => card.getAttribute('aria-labelledby') === `post-${postId}-title`);
  }, []);

  useEffect(() => {
    const at = reviewedAt.current;
    if (at === null || at < 0 || !items) return;
    reviewedAt.current = null;
    const cards = list.current?.querySelectorAll('article') ?? [];
    const next = cards[Math.min(at, cards.length - 1)]?.querySelector('button');
    (next ?? document.getElementById('main'))?.focus();
  }, [items]);

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
      <div className="app-post-list" ref={list}>
        {items.map((post) => (
          <PendingPost key={post.id} post={post} onReviewing={onReviewing} />
        ))}
      </div>
      {hasMore && <LoadMore onLoadMore={loadMore} loading={loadingMore} label="Load more pending posts" />}
    </>
  );
}
