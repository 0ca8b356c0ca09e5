import { useEffect, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import './post.scss';
import { PageLoading } from '../../components/page-loading';
import { useSnapshotPage, type SnapshotItems } from '../../boot/forum-snapshot-app';
import { ErrorBoundary } from '../../components/error-boundary';
import { recordView } from '../../db/replies/replies';
import { markPostRead, unreadAbout } from '../../db/notifications/notifications';
import { useLiveQuery } from 'dexie-react-hooks';
import { whenIdle } from '../../db/storage/idle';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { useFirstSyncSettled } from '../../hooks/use-first-sync-settled';
import { paths } from '../../config/paths';
import type { EditablePost } from '../../db/posts/editing';
import type { Session } from '../../db/types';
import { BackToForum } from './back-to-forum';
import { PostUnavailable } from './post-unavailable';
import { KeptDrafts } from '../../components/kept-drafts';
import { PostView } from './post-view';
import { Thread } from './thread';
import { usePost } from './use-post';
import { useServerPost } from './use-server-post';
import { pageFrom, useThreadPage } from './use-thread-page';

/** What a post page's snapshot keeps: the post, and the replies that start on the first screen (one at least). */
const SNAPSHOT_REPLIES: SnapshotItems = { selector: '.app-replies > li', least: 1 };

/**
 * A post's page: the post and its conversation, or "Post not available". On a connected device
 * whose first sync is still bringing the posts, a post it lacks shows the loading state until that
 * sync settles; never an endless spinner.
 */
export function PostScreen({ postId, viewer, onEdit }: { postId: number | null; viewer: Session; onEdit: (post: EditablePost) => void }) {
  const lookup = usePost(postId, viewer);
  const navigate = useNavigate();
  // The thread's page is read alongside the post, not after it: the first replies paint one
  // IndexedDB round sooner (they are shown only once the post is, and only if it may be seen).
  const [params] = useSearchParams();
  const thread = useThreadPage(postId, pageFrom(params.get('page')));
  const settled = useFirstSyncSettled();
  const shownId = lookup.state === 'shown' ? lookup.post.id : null;
  // A post beyond this device's window comes from the server when its page opens (online).
  const fetching = useServerPost(postId, lookup.state === 'missing' && settled, viewer.email);
  const unavailable = lookup.state === 'missing' && (settled || postId === null) && !fetching;
  const title = lookup.state === 'shown' ? clip(lookup.post.title, DISPLAY_CHARS.title) : unavailable ? 'Post not available' : null;
  // The snapshot painted before the app booted (src/boot/forum-snapshot.ts) stays until the post and
  // its first replies are shown in its place; the page's first screen is stored as the next one.
  const shownPost = lookup.state === 'shown' ? lookup.post : null;
  const complete = shownPost !== null && thread !== undefined;
  // Stored only from the first page of replies (the rows of another may still be on screen a moment).
  const saveable = complete && thread.page === 1;
  const rows = useMemo(() => [shownPost, thread], [shownPost, thread]);
  useSnapshotPage(complete || unavailable, saveable, rows, SNAPSHOT_REPLIES);

  // One view per member per post (the data layer counts it once); a failure is not worth a word.
  // Written once the page is idle: its write would hold up the thread's first read.
  useEffect(() => {
    if (shownId === null) return undefined;
    return whenIdle(() => void recordView(shownId).catch(() => undefined), 1_000);
  }, [shownId]);
  // What the bell says about the post on screen is read: at opening, and as it arrives while the
  // post is open (a reply synced in from another device), once the member is looking at this tab.
  // Keyed by the notifications themselves: one read as another arrives is a change too.
  const unreadHere = useLiveQuery(async () => (shownId === null ? '' : (await unreadAbout(shownId)).join(' ')), [shownId], '');
  useEffect(() => {
    if (shownId === null || unreadHere === '') return undefined;
    let stopIdle: (() => void) | undefined;
    const read = () => {
      if (document.visibilityState !== 'visible' || stopIdle) return;
      stopIdle = whenIdle(() => void markPostRead(shownId).catch(() => undefined), 1_000);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => {
      document.removeEventListener('visibilitychange', read);
      stopIdle?.();
    };
  }, [shownId, unreadHere]);
  useEffect(() => {
    if (title) document.title = `${title} · Insight Exchange`;
  }, [title]);

  return (
    <div className="container app-page-body app-post-page">
      {lookup.state === 'shown' ? (
        <>
          <BackToForum />
          <PostView post={lookup.post} viewer={viewer} onEdit={onEdit} onDeleted={() => void navigate(paths.forum)} />
          <ErrorBoundary area="the replies">
            <Thread post={lookup.post} viewer={viewer} thread={thread} />
          </ErrorBoundary>
        </>
      ) : unavailable ? (
        <>
          <PostUnavailable />
          {/* A reply half-written here when the post was lost (its group left) is kept: said where it was written. */}
          {postId !== null && <KeptDrafts email={viewer.email} postId={postId} />}
        </>
      ) : (
        <PageLoading label="Loading the post..." />
      )}
    </div>
  );
}
