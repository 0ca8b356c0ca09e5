import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppShell } from '../components/layouts/app-shell';
import { ScreenOutlet } from '../components/layouts/screen-outlet';
import { OutdatedBanner } from '../components/outdated-banner';
import { SilencedBanner } from '../components/silenced-banner';
import { useSilence } from '../hooks/use-silenced';
import { PageLoading } from '../components/page-loading';
import { useToast } from '../components/toast/toast-context';
import { paths } from '../config/paths';
import { afterFirstPosts } from '../db/storage/idle';
import { preloadRunnerOnIntent, preloadRunnerUncached } from '../db/ops/run-later';
import { formatCount, plural } from '../lib/format';
import { useAuth } from '../features/auth/auth-context';
import { useReviewCounts } from '../features/admin/use-pending-posts';
import { useUnreadCount } from '../features/notifications/use-notifications';
import { useUnreadMessages } from '../features/messages/use-unread-messages';
import { NewPostProvider } from '../features/posting/new-post-provider';
import { useNewPost } from '../features/posting/new-post-context';
import { InstallButton } from '../features/pwa/install-button';
import { OfflineBadge } from '../features/pwa/offline-badge';
import { UpdatePrompt } from '../features/pwa/update-prompt';
import { SyncBadge } from '../features/sync/sync-badge';
import { SyncNotices } from '../features/sync/sync-notices';
import { useSyncStatus } from '../hooks/use-sync-status';
import { beginVisit } from '../hooks/use-visit';
import type { Session } from '../db/types';
import { useDataStatus } from './data-status';
import { endFirstFrame } from '../db/storage/first-frame';
import { LikeContext } from '../components/like-context';
import { likePost } from '../db/likes/likes';
// Log out counts what waits (sync/auth.ts, which loads it when asked): here, it is loaded with the
// area, so a Log out offline on a device without the service worker still counts.
import '../db/ops/outbox-waiting';
import { useAfterFirstPosts } from '../hooks/use-after-first-posts';

// The boot script drew the page in the member's theme: following its changes can wait.
const loadThemeFollower = () => import('./theme-follower');
// The system notifications' watcher starts after the first posts too (what is there when it starts is never shown).
const loadNotificationWatcher = () => import('../features/notifications/notification-watcher');
// Shown on few devices: their code loads only there (a device without storage; a connected device
// that has posts of its own from before it met the server).
const StorageUnavailable = lazy(() => import('../components/storage-unavailable').then((m) => ({ default: m.StorageUnavailable })));
// Log out's "Changes not sent yet" (issue 59): only when something could not be sent.
const UnsentChangesDialog = lazy(() =>
  import('../components/confirm/unsent-changes-dialog').then((m) => ({ default: m.UnsentChangesDialog })),
);
const UploadQuestion = lazy(() => import('../features/sync/upload-question').then((m) => ({ default: m.UploadQuestion })));

function ProtectedShell({ user }: { user: Session }) {
  const isAdmin = user.role === 'admin';
  const { logout } = useAuth();
  const connected = useSyncStatus().state !== 'local';
  const { open, preload } = useNewPost();
  const { status, progress, start } = useDataStatus();
  const navigate = useNavigate();
  const showToast = useToast();
  const ready = status === 'ready';
  const review = useReviewCounts(isAdmin && ready);
  const unreadCount = useUnreadCount(ready);
  const unreadMessages = useUnreadMessages(ready && connected);
  const silence = useSilence(user.email);
  useEffect(() => start(), [start]);
  // A data layer that cannot start ends a new browser's first frame at once (its posts will not come).
  useEffect(() => {
    if (status === 'unavailable' || status === 'outdated') endFirstFrame();
  }, [status]);
  // What's new: this page load is the member's visit (the previous one's time is kept for every screen).
  // (Its code waits for the first posts, as the theme follower's does.)
  useEffect(() => {
    if (!ready) return undefined;
    return afterFirstPosts(1_000, () => void beginVisit(user.email));
  }, [ready, user.email]);
  const themeFollower = useAfterFirstPosts(loadThemeFollower);
  const notificationWatcher = useAfterFirstPosts(loadNotificationWatcher);
  // The forum's code while the member reads another screen (after its first posts, or 3 s), as the
  // forum is where they go back to. The other screens' code loads when the member is about to open
  // one (AppRoutes: a pointer over its link, a finger on it, focus on it): fetched at once here,
  // Profile and the admin's screens with their dialogs were 23 KB gzip of the 216 a new member's
  // first trip to the forum fetched, for screens many never open.
  useEffect(() => afterFirstPosts(3_000, () => void import('../pages/forum')), []);
  useEffect(() => preloadRunnerOnIntent(), []);
  // Without a service worker the runner loads while the network is there, but after the forum's
  // first posts (or 3 s on another screen): fetched at start it came before them on a busy machine,
  // 13 KB gzip on the way from /login to /forum (issue 64, item 2).
  useEffect(() => afterFirstPosts(3_000, () => preloadRunnerUncached()), []);

  // Log out sends what is queued first; what could not be sent is named and the member may stay.
  const [unsent, setUnsent] = useState(0);
  const [loggingOut, setLoggingOut] = useState(false);
  const leaving = useRef(false);
  const onLogout = async (force = false) => {
    if (leaving.current) return;
    leaving.current = true;
    setLoggingOut(true);
    try {
      const result = await logout({ force });
      if (!result.signedOut) {
        setUnsent(result.unsent);
        return;
      }
      setUnsent(0);
      navigate(paths.login);
      showToast({ title: 'Logged Out', description: 'You have been successfully logged out.' });
    } finally {
      leaving.current = false;
      setLoggingOut(false);
    }
  };

  return (
    <AppShell
      isAdmin={isAdmin}
      review={review}
      unreadCount={unreadCount}
      unreadMessages={connected ? unreadMessages : undefined}
      onNewPost={silence ? undefined : open}
      onNewPostIntent={preload}
      onLogout={() => void onLogout()}
      loggingOut={loggingOut}
      status={
        <>
          {connected ? <SyncBadge /> : <OfflineBadge />}
          <InstallButton />
        </>
      }
      banner={
        <>
          {status === 'outdated' ? <OutdatedBanner /> : <UpdatePrompt />}
          {status === 'ready' && connected && (
            <Suspense fallback={null}>
              <UploadQuestion user={user} />
            </Suspense>
          )}
          {silence && <SilencedBanner silence={silence} />}
        </>
      }
    >
      <SyncNotices />
      {unsent > 0 && (
        <Suspense fallback={null}>
          <UnsentChangesDialog unsent={unsent} onStay={() => setUnsent(0)} onLogOut={() => onLogout(true)} />
        </Suspense>
      )}
      {ready && themeFollower && <themeFollower.ThemeFollower email={user.email} />}
      {ready && notificationWatcher && <notificationWatcher.NotificationWatcher />}
      {status === 'starting' ? (
        <PageLoading
          label={progress ? `Bringing ${plural(progress.total, 'post')} into this device… (${formatCount(progress.done)} done)` : undefined}
        />
      ) : status === 'unavailable' ? (
        <Suspense fallback={<PageLoading />}>
          <StorageUnavailable />
        </Suspense>
      ) : (
        <ScreenOutlet />
      )}
    </AppShell>
  );
}

/**
 * The protected area (forum, profile, admin) inside the forum header, with the New Post modal and
 * everything that reads the device's data (its code: the data layer's; ProtectedRoute loads it).
 */
export function ProtectedArea() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    // Keyed by member: a sign-in as someone else (in any tab) starts a fresh form and draft.
    <NewPostProvider key={user.email} email={user.email}>
      <LikeContext.Provider value={likePost}>
        <ProtectedShell user={user} />
      </LikeContext.Provider>
    </NewPostProvider>
  );
}
