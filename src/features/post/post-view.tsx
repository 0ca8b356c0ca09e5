import { useLiveQuery } from 'dexie-react-hooks';
import { PostActions } from '../../components/post-actions';
import { isSaved } from '../../db/saved/saved';
import { PostMeta } from '../../components/post-meta';
import { StatusBadge } from '../../components/status-badge';
import { Markdown } from '../../components/markdown/markdown';
import { PostOwnerActions } from '../../components/post-owner/post-owner-actions';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { LIMITS } from '../../shared/post-rules';
import type { EditablePost } from '../../db/posts/editing';
import type { Session } from '../../db/types';
import { flagRefusal } from '../../shared/moderation';
import { FlagButton } from './flag-button';
import { PreviousVersion } from './previous-version';
import { PollView } from './poll-view';
import { AttachmentList } from '../../components/attachments/attachment-list';
import { FollowMenu } from '../../components/follow/follow-menu';

interface PostViewProps {
  post: EditablePost;
  viewer: Session;
  onEdit: (post: EditablePost) => void;
  onDeleted: () => void;
}

/**
 * The whole post: byline, category, the title as the page's h1, its Markdown, tags, its actions
 * (Edit and Delete for its author, Delete for admins; the "Follow" menu), and for admins the version an
 * edit replaced.
 */
export function PostView({ post, viewer, onEdit, onDeleted }: PostViewProps) {
  const saved = useLiveQuery(() => isSaved(viewer.email, post.id), [viewer.email, post.id]);
  return (
    <article className="card app-post app-post-full" aria-labelledby="post-title">
      <div className="card-body">
        <PostMeta post={post} avatarSize={44} badges={post.status !== 'approved' && <StatusBadge status={post.status} />} />
        <h1 id="post-title" className="app-post-heading">
          {clip(post.title, DISPLAY_CHARS.title)}
        </h1>
        <Markdown className="app-post-body" source={clip(post.content, LIMITS.content)} />
        {post.attachments && post.attachments.length > 0 && <AttachmentList files={post.attachments} />}
        {post.poll && <PollView post={post} poll={post.poll} viewer={viewer} />}
        {post.tags.length > 0 && (
          <ul className="app-tags mt-3" aria-label="Tags">
            {post.tags.map((tag, index) => (
              <li key={index}>#{clip(tag, DISPLAY_CHARS.tag)}</li>
            ))}
          </ul>
        )}
        {viewer.role === 'admin' && post.previous && <PreviousVersion version={post.previous} />}
      </div>
      <div className="card-footer app-post-footer app-post-footer-split">
        <PostActions
          post={post}
          save={post.status === 'approved' ? { email: viewer.email, saved } : undefined}
          titleId="post-title"
          more={
            flagRefusal(post, null, viewer) === null && (
              <FlagButton
                target={{ postId: post.id, replyId: null }}
                what="post"
                className="btn btn-sm d-inline-flex align-items-center gap-1 fw-semibold text-body-secondary app-flag-button"
                describedBy="post-title"
              />
            )
          }
        />
        <div className="d-flex align-items-center gap-2">
          {post.status === 'approved' && <FollowMenu kind="post" target={String(post.id)} of={post} />}
          <PostOwnerActions post={post} viewer={viewer} onEdit={onEdit} onDeleted={onDeleted} titleId="post-title" />
        </div>
      </div>
    </article>
  );
}
