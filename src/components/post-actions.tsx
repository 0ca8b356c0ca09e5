import { formatCount } from '../lib/format';
import type { Post } from '../db/types';
import { LikeButton } from './like-button';
import { ShareButton } from './share-button';

/** The action row of a post (its card and its page): like, comment and view counts, share. */
export function PostActions({ post }: { post: Post }) {
  return (
    <div className="app-post-actions">
      <LikeButton post={post} />
      <span className="app-stat app-stat-comments" title="Comments">
        <span className="visually-hidden">Comments: </span>
        {formatCount(post.comments)}
      </span>
      <span className="app-stat app-stat-views" title="Views">
        <span className="visually-hidden">Views: </span>
        {formatCount(post.views)}
      </span>
      <ShareButton post={post} />
    </div>
  );
}
