import { memo } from 'react';
import { PostCard, samePost } from '../../components/post-card';
import type { Post } from '../../db/types';
import { PostActions } from '../../components/post-actions';
import { NewBadge } from '../../components/new-badge';
import { UnreadBadge } from '../../components/unread-badge';
import type { ParsedQuery } from '../../shared/search-language';

interface ForumPostProps {
  post: Post;
  /** The signed-in member (for Save). */
  email: string;
  saved: boolean | undefined;
  /** Arrived since the member's last visit ("New" for the rest of this view). */
  isNew: boolean;
  /** Replies new to the member since they last read the post, on any device ("N new"); 0: none. */
  unread?: number;
  /** The search, for the marked words. */
  query: ParsedQuery | undefined;
}

/** A forum card; it re-renders only when something it shows has changed. */
export const ForumPost = memo(
  function ForumPost({ post, email, saved, isNew, unread = 0, query }: ForumPostProps) {
    const titleId = `post-${post.id}-title`;
    return (
      <PostCard
        post={post}
        query={query}
        badges={
          (isNew || unread > 0) && (
            <>
              {isNew && <NewBadge />}
              {unread > 0 && <UnreadBadge count={unread} />}
            </>
          )
        }
        tabIndex={isNew ? -1 : undefined}
        footer={<PostActions post={post} save={{ email, saved }} titleId={titleId} />}
      />
    );
  },
  (previous, next) =>
    samePost(previous.post, next.post) &&
    previous.email === next.email &&
    previous.saved === next.saved &&
    previous.isNew === next.isNew &&
    previous.unread === next.unread &&
    previous.query === next.query,
);
