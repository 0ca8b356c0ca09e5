import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { PostMeta } from './post-meta';
import { DISPLAY_CHARS, clip } from '../lib/format';
import { excerptText } from '../lib/plain-text';
import type { Post } from '../db/types';
import type { PostAttachments, PostEdits, PostPoll } from '../shared/post-rules';
import { matchExcerpt, type ParsedQuery } from '../shared/search-language';
import { Highlight } from './highlight';

interface PostCardProps {
  post: Post & PostEdits & PostPoll & PostAttachments;
  /** Lines of content shown before it is cut (3 on the forum, 2 in the admin queue). */
  lines?: 2 | 3;
  /** Extra badges beside the category (e.g. the status on the profile). */
  badges?: ReactNode;
  /** A line under the badges and before the title (e.g. a rejection's reason). */
  note?: ReactNode;
  /** The action row under the content. */
  footer?: ReactNode;
  /** -1 where the card itself takes focus (the admin queue's j/k). */
  tabIndex?: number;
  /** Extra classes on the article (e.g. a selected card). */
  className?: string;
  /** The search whose matched words are marked in the title and the excerpt. */
  query?: ParsedQuery;
  /** Shown in place of the excerpt (the admin queue's post read in place). */
  body?: ReactNode;
  /** Under the content, before the tags (the admin queue's Read all). */
  more?: ReactNode;
}

/** The fields a card shows (tags are compared apart). */
const SHOWN_FIELDS = [
  'id',
  'likes',
  'comments',
  'views',
  'status',
  'title',
  'content',
  'category',
  'author',
  'authorEmail',
  'isTopContributor',
  'date',
  'editedAt',
  'resubmitted',
] as const;

/** True when two copies of a post would render the same card (live queries return new objects). */
export function samePost(a: Post & PostEdits & PostPoll & PostAttachments, b: Post & PostEdits & PostPoll & PostAttachments): boolean {
  return (
    SHOWN_FIELDS.every((field) => a[field] === b[field]) &&
    a.tags.join('\u0000') === b.tags.join('\u0000') &&
    a.poll?.voters === b.poll?.voters &&
    a.poll?.closedAt === b.poll?.closedAt &&
    a.attachments?.length === b.attachments?.length
  );
}

/** One post as a card: an `article` whose heading is the post title, a link to the post's page. */
export function PostCard({ post, lines = 3, badges, note, footer, tabIndex, className, query, body, more }: PostCardProps) {
  const titleId = `post-${post.id}-title`;
  // Cards clamp the content to a few lines, so only its beginning is ever rendered; its Markdown
  // marks are removed (plain text: React text, never HTML), and its lines run on as one paragraph:
  // a blank line, or a line ending in a full stop, never takes the clamp's "…" alone.
  // A search's first match past those lines moves the start near it (matchExcerpt), so it shows, marked.
  const content = clip(matchExcerpt(excerptText(post.content), query), DISPLAY_CHARS.content);
  return (
    <article
      className={`card app-post${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      tabIndex={tabIndex}
      data-post-id={post.id}
    >
      <div className="card-body">
        <PostMeta post={post} badges={badges} />
        {note}
        <h3 id={titleId} className="app-post-title">
          <Link to={paths.post(post.id)} className="app-post-link">
            <Highlight text={clip(post.title, DISPLAY_CHARS.title)} query={query} />
          </Link>
        </h3>
        {body ?? (
          <p className={`app-post-content app-clamp-${lines}`}>
            <Highlight text={content} query={query} />
          </p>
        )}
        {post.poll && (
          <p className="small text-body-secondary mb-2 text-truncate">
            Poll: {clip(post.poll.question, DISPLAY_CHARS.title)} · {post.poll.voters.toLocaleString('en-US')}{' '}
            {post.poll.voters === 1 ? 'voter' : 'voters'}
            {post.poll.closedAt !== null ? ' · Closed' : ''}
          </p>
        )}
        {post.attachments && post.attachments.length > 0 && (
          <p className="small text-body-secondary mb-2 app-card-attachments">
            {post.attachments.length === 1 ? '1 attachment' : `${post.attachments.length} attachments`}
          </p>
        )}
        {more}
        {post.tags.length > 0 && (
          <ul className="app-tags" aria-label="Tags">
            {post.tags.slice(0, 6).map((tag, index) => (
              <li key={index}>#{clip(tag, DISPLAY_CHARS.tag)}</li>
            ))}
          </ul>
        )}
      </div>
      {footer && <div className="card-footer app-post-footer">{footer}</div>}
    </article>
  );
}
