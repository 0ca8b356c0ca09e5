import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../components/error-boundary';
import { PageLoading } from '../components/page-loading';
import { RequireAdmin } from '../features/auth/require-admin';
import { RequireAuth } from '../features/auth/require-auth';
import { useAuth } from '../features/auth/auth-context';
import { HomePage } from '../pages/home';
import { releaseSnapshot, snapshotPath } from '../boot/forum-snapshot-release';
import { PublicRoute } from './public-route';
import { RootRoute } from './root-route';
import { lazyScreen as screen, type Screen } from './lazy-screen';
import { whenIdle } from '../db/storage/idle';
import { paths } from '../config/paths';
import { endFirstFrame, firstFramePending, firstFrameShown } from '../db/storage/first-frame';
import { protectedAreaScreen } from './load-area';
import { forumScreen } from './forum-screen';
import { databaseExists } from '../db/storage/database-exists';

// Declarative routes (a <Routes> tree, not a data router): React Router's data router and its
// loaders are 17 KB gzip of JavaScript every page fetched, for lazy routes and scroll restoration
// alone. Here lazyScreen (React.lazy until a screen's code is loaded) loads the screens, and
// RootRoute's ScrollMemory keeps scroll positions.

// The home page ships in the first chunk; every other screen, and the protected area's frame,
// loads when first visited.
const about = screen('/about', () => import('../pages/about').then((m) => m.AboutPage));
const login = screen('/login', () => import('../pages/login').then((m) => m.LoginPage));
const resetPassword = screen('/reset-password', () => import('../pages/account-links').then((m) => m.ResetPasswordPage));
const confirmEmail = screen('/confirm-email', () => import('../pages/account-links').then((m) => m.ConfirmEmailPage));
const unsubscribe = screen('/unsubscribe', () => import('../pages/account-links').then((m) => m.UnsubscribePage));
// The area's code (with the data layer's) loads beside its route's, except on a new browser's first
// /forum, which paints its first frame before that code is asked for (db/storage/first-frame.ts).
const protectedArea = screen('/*', () =>
  Promise.all([import('./protected-route'), firstFramePending() ? undefined : protectedAreaScreen.load()]).then(([m]) => m.ProtectedRoute),
);
const forum = forumScreen;
// The page's code and the Markdown renderer load side by side, and the page shows once both are
// here: its text appears rendered, never as raw Markdown first.
const post = screen('/posts/:id', () =>
  Promise.all([import('../pages/post'), import('../lib/markdown/render')]).then(async ([m]) => {
    await m.markdownReady;
    return m.PostPage;
  }),
);
const profile = screen('/profile', () => import('../pages/profile').then((m) => m.ProfilePage));
const member = screen('/members/:id', () => import('../pages/member').then((m) => m.MemberPage));
// The manifest's share_target and its New Post shortcut: New Post over the forum.
const share = screen('/share', () => import('../pages/share').then((m) => m.SharePage));
const newPost = screen('/new', share.load);
const notifications = screen('/notifications', () => import('../pages/notifications').then((m) => m.NotificationsPage));
const messages = screen('/messages', () => import('../pages/messages').then((m) => m.MessagesPage));
// Its messages' text is Markdown: the renderer loads beside the page's code, as for a post.
const conversation = screen('/messages/:id', () =>
  Promise.all([import('../pages/messages'), import('../lib/markdown/render')]).then(([m]) => m.ConversationPage),
);
const admin = screen('/admin', () => import('../pages/admin').then((m) => m.AdminPage));
// Its charts (uPlot, in its own chunk) load on this route only, asked for as soon as the page's code
// is here: asked for by the first chart, uPlot came after the server's figures, one fetch after the
// other (Insights took 3.2-3.9 s on a busy 2-core machine, bench/first-visits.mjs).
const insights = screen('/admin/insights', () =>
  import('../pages/admin-insights').then((m) => {
    m.preloadCharts();
    return m.AdminInsightsPage;
  }),
);
const staffLog = screen('/admin/log', () => import('../pages/admin-log').then((m) => m.AdminLogPage));

const publicScreens = [about, login, resetPassword, confirmEmail, unsubscribe];
const memberScreens = [forum, post, profile, member, share, newPost, notifications, messages, conversation];
const adminScreens = [admin, insights, staffLog];

/**
 * Starts loading the code of the screen at `pathname` (and of the protected area's frame) at once,
 * side by side, where nested React.lazy would fetch one after the other as each rendered.
 */
export function preloadScreens(pathname: string) {
  const protectedScreen = [...memberScreens, ...adminScreens].find((s) => matchPath(s.path, pathname));
  const match = protectedScreen ?? publicScreens.find((s) => matchPath(s.path, pathname));
  if (protectedScreen) void protectedArea.load().catch(() => undefined);
  // A new browser's first /forum paints its first frame first: the screens' code comes after it.
  if (match && !(protectedScreen && firstFramePending())) void match.load().catch(() => undefined);
}

/**
 * Once a member is signed in, or on the sign-in page, when the browser is idle: the forum's code
 * (and the protected area's), where they go next (from the service worker's cache when it has it).
 */
function usePreloadForum(comingIn: boolean, signedIn: boolean): void {
  useEffect(() => {
    if (!comingIn) return undefined;
    let live = true;
    // Not on a new browser (no database yet): its first /forum paints the first frame before the
    // forum's code is asked for (db/storage/first-frame.ts; a connected Sign In makes the database).
    const stop = whenIdle(
      () =>
        void databaseExists().then((held) => {
          if (held && live) preloadScreens(paths.forum);
        }),
    );
    return () => {
      live = false;
      stop();
    };
  }, [comingIn, signedIn]);
}

/** What a member shows they are about to open: a pointer over a link, a finger on it, focus on it. */
const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

/**
 * Starts loading the code of a screen when the member is about to open it (a pointer over its
 * link, a finger on it, focus on it), not before: what they may never open is not fetched. A tap
 * gives the code the time between touchstart and click, a mouse the time it takes to move and press.
 */
function usePreloadOnIntent(): void {
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement && link.origin === window.location.origin) preloadScreens(link.pathname);
    };
    for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
    return () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, { capture: true });
    };
  }, []);
}

const route = ({ path, Component }: Screen & { Component: ComponentType }) => (
  <Route key={path} path={path.slice(1)} element={<Component />} />
);

/**
 * Any other path's screen takes a painted snapshot (a stand-in for its own page only) away at
 * once, or one still to be painted (read from the cache without the service worker) off the path
 * the page opened on.
 */
function SnapshotRelease() {
  const { pathname } = useLocation();
  const [opened] = useState(pathname);
  useEffect(() => {
    if (pathname !== (snapshotPath() ?? opened)) releaseSnapshot();
    // A new browser's first frame is the forum's: another screen (a sign-out's included) ends it.
    if (pathname !== paths.forum && firstFrameShown()) endFirstFrame();
  }, [pathname, opened]);
  return null;
}

/**
 * Every route of the app. A screen that fails to load (a chunk missing after a deploy) or to
 * render shows the crash screen, until the member goes elsewhere.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const { isAuthenticated } = useAuth();
  usePreloadForum(isAuthenticated || pathname === paths.login, isAuthenticated);
  usePreloadOnIntent();
  return (
    <ErrorBoundary fullPage resetKey={pathname}>
      <SnapshotRelease />
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route element={<RootRoute />}>
            <Route element={<PublicRoute />}>
              <Route index element={<HomePage />} />
              {publicScreens.map(route)}
            </Route>
            <Route element={<RequireAuth />}>
              <Route element={<protectedArea.Component />}>
                {memberScreens.map(route)}
                <Route element={<RequireAdmin />}>{adminScreens.map(route)}</Route>
              </Route>
            </Route>
            <Route path="*" element={<Navigate to="/" replace />} />
          </Route>
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
