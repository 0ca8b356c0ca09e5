import { useEffect } from 'react';
import './post.scss';
import { PageLoading } from '../../components/page-loading';
import { ErrorBoundary } from '../../components/error-boundary';
import { recordView } from '../../db/replies/replies';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { useFirstSyncSettled } from '../../hooks/use-first-sync-settled';
import type { Session } from '../../db/types';
import { BackToForum } from './back-to-forum';
import { PostUnavailable } from './post-unavailable';
import { PostView } from './post-view';
import { Thread } from './thread';
import { usePost } from './use-post';

/**
 * A post's page: the post and its conversation, or "Post not available". On a connected device
 * whose first sync is still bringing the posts, a post it lacks shows the loading state until that
 * sync settles; never an endless spinner.
 */
export function PostScreen({ postId, viewer }: { postId: number | null; viewer: Session }) {
  const lookup = usePost(postId, viewer);
  const settled = useFirstSyncSettled();
  const shownId = lookup.state === 'shown' ? lookup.post.id : null;
  const unavailable = lookup.state === 'missing' && (settled || postId === null);
  const title = lookup.state === 'shown' ? clip(lookup.post.title, DISPLAY_CHARS.title) : unavailable ? 'Post not available' : null;

  // One view per member per post (the data layer counts it once); a failure is not worth a word.
  useEffect(() => {
    if (shownId !== null) recordView(shownId).catch(() => undefined);
  }, [shownId]);
  useEffect(() => {
    if (title) document.title = `${title} · Insight Exchange`;
  }, [title]);

  return (
    <div className="container app-page-body app-post-page">
      {lookup.state === 'shown' ? (
        <>
          <BackToForum />
          <PostView post={lookup.post} />
          <ErrorBoundary area="the replies">
            <Thread post={lookup.post} viewer={viewer} />
          </ErrorBoundary>
        </>
      ) : unavailable ? (
        <PostUnavailable />
      ) : (
        <PageLoading label="Loading the post..." />
      )}
    </div>
  );
}
