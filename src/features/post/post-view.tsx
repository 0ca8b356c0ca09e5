import { Avatar } from '../../components/avatar';
import { PostActions } from '../../components/post-actions';
import { StatusBadge } from '../../components/status-badge';
import { DISPLAY_CHARS, clip, formatPostDate } from '../../lib/format';
import { LIMITS } from '../../shared/post-rules';
import type { Post } from '../../db/types';

/** The whole post: byline, category, the title as the page's h1, all of its text, tags, and its actions. */
export function PostView({ post }: { post: Post }) {
  const author = clip(post.author, DISPLAY_CHARS.author);
  return (
    <article className="card app-post app-post-full" aria-labelledby="post-title">
      <div className="card-body">
        <div className="app-post-meta">
          <Avatar name={author} seed={post.authorEmail} size={44} />
          <div className="app-post-byline">
            <span className="app-post-author">{author}</span>
            {post.isTopContributor && <span className="badge text-bg-warning app-top-badge">Top Contributor</span>}
            <span className="app-post-date">{formatPostDate(post)}</span>
          </div>
          <span className="badge app-category">{clip(post.category, DISPLAY_CHARS.category)}</span>
          {post.status !== 'approved' && <StatusBadge status={post.status} />}
        </div>
        <h1 id="post-title" className="app-post-heading">
          {clip(post.title, DISPLAY_CHARS.title)}
        </h1>
        {/* Plain text for now, its line breaks kept (Markdown comes later). */}
        <div className="app-post-body">{clip(post.content, LIMITS.content)}</div>
        {post.tags.length > 0 && (
          <ul className="app-tags mt-3" aria-label="Tags">
            {post.tags.map((tag, index) => (
              <li key={index}>#{clip(tag, DISPLAY_CHARS.tag)}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="card-footer app-post-footer">
        <PostActions post={post} />
      </div>
    </article>
  );
}
