import type { ReactNode } from 'react';
import { authorKey } from '../shared/members';
import { AuthorName } from './author-name';
import { Avatar } from './avatar';
import { DISPLAY_CHARS, clip, formatFullDate, formatPostDate } from '../lib/format';
import type { Post } from '../db/types';
import type { PostEdits } from '../shared/post-rules';
import { usePostCategory } from '../hooks/use-categories';
import { PrivateBadge } from './private-badge';

/**
 * A post's byline (avatar, author, Top Contributor, date, "edited" when its author changed it
 * after approval), its category and, in a private category, the "Private" badge, on its card and its page.
 */
export function PostMeta({
  post,
  badges,
  avatarSize,
}: {
  post: Post & PostEdits & { authorId?: string };
  badges?: ReactNode;
  avatarSize?: number;
}) {
  const author = clip(post.author, DISPLAY_CHARS.author);
  const { editedAt } = post;
  // The category's name now (an admin may rename it: the post holds its id), and who sees it when private.
  const { name: category, audience } = usePostCategory(post.category);
  return (
    <div className="app-post-meta">
      <Avatar name={author} seed={authorKey(post) || undefined} size={avatarSize} />
      <div className="app-post-byline">
        <AuthorName item={post} className="app-post-author" />
        {post.isTopContributor && <span className="badge text-bg-warning app-top-badge">Top Contributor</span>}
        <span className="app-post-date">
          {formatPostDate(post)}
          {typeof editedAt === 'number' && (
            <>
              {' · '}
              <time className="app-post-edited" dateTime={new Date(editedAt).toISOString()} title={`Edited ${formatFullDate(editedAt)}`}>
                edited
              </time>
            </>
          )}
        </span>
      </div>
      <span className="badge app-category">{clip(category, DISPLAY_CHARS.category)}</span>
      {audience && <PrivateBadge audience={audience} />}
      {badges}
    </div>
  );
}
