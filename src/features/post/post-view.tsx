import { PostActions } from '../../components/post-actions';
import { PostMeta } from '../../components/post-meta';
import { StatusBadge } from '../../components/status-badge';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { LIMITS } from '../../shared/post-rules';
import type { Post } from '../../db/types';

/** The whole post: byline, category, the title as the page's h1, all of its text, tags, and its actions. */
export function PostView({ post }: { post: Post }) {
  return (
    <article className="card app-post app-post-full" aria-labelledby="post-title">
      <div className="card-body">
        <PostMeta post={post} avatarSize={44} badges={post.status !== 'approved' && <StatusBadge status={post.status} />} />
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
