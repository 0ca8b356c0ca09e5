import { Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { paths } from '../config/paths';
import { useAuth } from '../features/auth/auth-context';
import { endFirstFrame, FIRST_FRAME_MAX_MS, firstFrameShown, onFirstFrameEnd, takeFirstFrame } from '../db/storage/first-frame';
import { firstFrameContent, ForumFirstFrame } from './forum-first-frame';
import { protectedAreaScreen } from './load-area';
import { useDataStatus } from './data-status';
import { forumScreen } from './forum-screen';
import { PageLoading } from '../components/page-loading';

/** After the frame now rendering is painted (rAF runs before the paint, the task after it); returns the cancel. */
function afterPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * The protected area (forum, profile, admin): its code (protected-area.tsx, with the data layer's)
 * loads with this one; on a new browser's first /forum after Sign In (db/storage/first-frame.ts),
 * after the forum's first frame is painted. The live page then renders out of sight and takes the
 * frame's place in the same frame once its posts are read (or the member leaves /forum, its data
 * layer cannot start, or 10 s pass).
 */
export function ProtectedRoute() {
  const { user } = useAuth();
  const { start } = useDataStatus();
  // The forum as it first opens (every category, no search): the frame shows what that shows.
  const [content] = useState(() => {
    const at = user && location.pathname === paths.forum && location.search === '' ? takeFirstFrame(user.email) : undefined;
    return at === undefined ? undefined : firstFrameContent(at);
  });
  const framed = useSyncExternalStore(onFirstFrameEnd, firstFrameShown) && content !== undefined;
  const [painted, setPainted] = useState(content === undefined);
  useEffect(() => {
    if (painted) return undefined;
    // The area's code, the forum screen's and the data layer's start, side by side, once the frame is on screen.
    return afterPaint(() => {
      setPainted(true);
      start();
      void protectedAreaScreen.load().catch(() => undefined);
      void forumScreen.load().catch(() => undefined);
    });
  }, [painted, start]);
  // Another screen first (or a copy that cannot be read): no frame, and the mark goes (the data layer
  // comes now). Leaving /forum ends a frame on screen (AppRoutes, which stays when this goes).
  useEffect(() => {
    if (content === undefined) endFirstFrame();
  }, [content]);
  useEffect(() => {
    if (!framed) return undefined;
    const timer = setTimeout(endFirstFrame, FIRST_FRAME_MAX_MS);
    return () => clearTimeout(timer);
  }, [framed]);
  // The frame was inert: the page's focus (RootRoute's, on its main) could not go there. Once the live
  // page has taken over, it goes to the live page's main, as on any route change.
  const wasFramed = useRef(framed);
  useEffect(() => {
    if (wasFramed.current && !framed && (document.activeElement === null || document.activeElement === document.body))
      document.getElementById('main')?.focus({ preventScroll: true });
    wasFramed.current = framed;
  }, [framed]);
  if (!user) return null;
  const Area = protectedAreaScreen.Component;
  return (
    <>
      {framed && <ForumFirstFrame user={user} content={content} />}
      {/* Rendered once the frame is painted, or at once without one (a frame that ended early too). */}
      {(painted || !framed) && (
        <Suspense fallback={framed ? null : <PageLoading />}>
          <Area />
        </Suspense>
      )}
    </>
  );
}
