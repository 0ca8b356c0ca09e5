import { memo } from 'react';
import { PostCard, samePost } from '../../components/post-card';
import type { Post } from '../../db/types';
import { PostActions } from '../../components/post-actions';

/** A forum card; it re-renders only when something it shows has changed. */
export const ForumPost = memo(
  function ForumPost({ post }: { post: Post }) {
    return <PostCard post={post} footer={<PostActions post={post} />} />;
  },
  (previous, next) => samePost(previous.post, next.post),
);
