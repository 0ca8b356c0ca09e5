import type { ReactNode } from 'react';
import { formatCount } from '../lib/format';
import type { Post } from '../db/types';
import { LikeButton } from './like-button';
import { ShareButton } from './share-button';
import { SaveButton, type SaveState } from './save-button';

/**
 * The action row of a post (its card and its page): like, comment and view counts, Save (for a
 * signed-in member: `save`), `more` (the post page's Flag), share: one row, one look. `titleId` names
 * the post for the Save button.
 */
export function PostActions({ post, save, titleId, more }: { post: Post; save?: SaveState; titleId?: string; more?: ReactNode }) {
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
      {save && <SaveButton postId={post.id} state={save} describedBy={titleId} />}
      {more}
      <ShareButton post={post} />
    </div>
  );
}
