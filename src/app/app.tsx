import { useEffect } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ErrorBoundary } from '../components/error-boundary';
import { ToastProvider } from '../components/toast/toast-provider';
import { AuthProvider } from '../features/auth/auth-provider';
import { startPwa } from '../features/pwa/pwa-store';
import { dropSnapshotOfOthers, keepForumSnapshotFresh, releaseSnapshot } from '../boot/forum-snapshot-app';
import { DataProvider } from './data-status';
import { router } from './router';
import { VisitorTheme } from './visitor-theme';

/** The providers every screen relies on, around the router. */
export function App() {
  useEffect(() => {
    // The running build, for support and for tests that check an update took effect.
    document.documentElement.dataset.build = __BUILD_ID__;
    startPwa();
    // The forum's snapshot is only ever a stand-in for the forum's list: any other screen
    // (a redirect to sign in, another route) takes it away at once.
    const check = (path: string) => {
      if (path !== '/forum') releaseSnapshot();
    };
    check(router.state.location.pathname);
    const stopRouter = router.subscribe((state) => check(state.location.pathname));
    const stopFresh = keepForumSnapshotFresh();
    dropSnapshotOfOthers();
    return () => {
      stopRouter();
      stopFresh();
    };
  }, []);
  return (
    <ErrorBoundary fullPage>
      <ToastProvider>
        <AuthProvider>
          <VisitorTheme />
          <DataProvider>
            <RouterProvider router={router} />
          </DataProvider>
        </AuthProvider>
      </ToastProvider>
    </ErrorBoundary>
  );
}
