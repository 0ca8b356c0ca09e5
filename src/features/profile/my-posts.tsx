import Button from 'react-bootstrap/Button';
import { IconPencilPlus } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import { PostCard } from '../../components/post-card';
import { StatusBadge } from '../../components/status-badge';
import { UnsentBadge } from '../../components/unsent-badge';
import { PostOwnerActions } from '../../components/post-owner/post-owner-actions';
import type { EditablePost } from '../../db/posts/editing';
import type { PostReview } from '../../shared/moderation';
import type { Session } from '../../db/types';
import { useMyPosts } from './use-my-posts';
import { CatchingUp } from '../../components/catching-up';

interface MyPostsProps {
  viewer: Session;
  onWrite: () => void;
  onEdit: (post: EditablePost) => void;
}

/** "Reason: …" under a rejected post's badge, when the admin gave one. */
function RejectionReason({ post }: { post: EditablePost & PostReview }) {
  if (post.status !== 'rejected' || !post.reason) return null;
  return <p className="app-reject-reason">Reason: {post.reason}</p>;
}

/** My Posts: every post whose authorEmail is the member's, each with its status badge, Edit and Delete. */
export function MyPosts({ viewer, onWrite, onEdit }: MyPostsProps) {
  const { items, hasMore, loadingMore, loadMore } = useMyPosts(viewer.email);
  return (
    <section aria-labelledby="my-posts">
      <h2 id="my-posts" className="h4 mb-3">
        My Posts
      </h2>
      <CatchingUp />
      {!items ? (
        <PageLoading label="Loading your posts..." />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<IconPencilPlus size={40} />}
          title="You haven't posted anything yet."
          action={<Button onClick={onWrite}>Write your first post</Button>}
        />
      ) : (
        <>
          <div className="app-post-list">
            {items.map((post) => (
              <PostCard
                key={post.id}
                post={post}
                badges={
                  <>
                    <StatusBadge status={post.status} />
                    {post.unsent && <UnsentBadge />}
                  </>
                }
                note={<RejectionReason post={post} />}
                footer={<PostOwnerActions post={post} viewer={viewer} onEdit={onEdit} titleId={`post-${post.id}-title`} />}
              />
            ))}
          </div>
          {hasMore && <LoadMore onLoadMore={loadMore} loading={loadingMore} label="Load more of my posts" />}
        </>
      )}
    </section>
  );
}
