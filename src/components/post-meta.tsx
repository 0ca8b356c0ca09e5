import type { ReactNode } from 'react';
import { Avatar } from './avatar';
import { DISPLAY_CHARS, clip, formatPostDate } from '../lib/format';
import type { Post } from '../db/types';

/** A post's byline (avatar, author, Top Contributor, date) and its category, on its card and its page. */
export function PostMeta({ post, badges, avatarSize }: { post: Post; badges?: ReactNode; avatarSize?: number }) {
  const author = clip(post.author, DISPLAY_CHARS.author);
  return (
    <div className="app-post-meta">
      <Avatar name={author} seed={post.authorEmail} size={avatarSize} />
      <div className="app-post-byline">
        <span className="app-post-author">{author}</span>
        {post.isTopContributor && <span className="badge text-bg-warning app-top-badge">Top Contributor</span>}
        <span className="app-post-date">{formatPostDate(post)}</span>
      </div>
      <span className="badge app-category">{clip(post.category, DISPLAY_CHARS.category)}</span>
      {badges}
    </div>
  );
}
