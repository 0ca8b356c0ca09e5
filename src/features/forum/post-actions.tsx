import { useToast } from '../../components/toast/toast-context';
import { DISPLAY_CHARS, clip, formatCount } from '../../lib/format';
import type { Post } from '../../db/types';
import { LikeButton } from './like-button';

/** The action row of a forum card: like, comment and view counts, share. */
export function PostActions({ post }: { post: Post }) {
  const showToast = useToast();
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
      <button
        type="button"
        className="btn btn-sm app-share"
        aria-label={`Share: ${clip(post.title, DISPLAY_CHARS.title)}`}
        onClick={() => showToast({ title: 'Coming soon', description: "Sharing isn't available yet.", variant: 'info' })}
      >
        <span className="app-share-label">Share</span>
      </button>
    </div>
  );
}
