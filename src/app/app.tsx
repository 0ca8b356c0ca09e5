import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { ErrorBoundary } from '../components/error-boundary';
import { ToastProvider } from '../components/toast/toast-provider';
import { AuthProvider } from '../features/auth/auth-provider';
import { startPwa } from '../features/pwa/pwa-store';
import { dropSnapshotOfOthers, keepForumSnapshotFresh } from '../boot/forum-snapshot-release';
import { DataProvider } from './data-status';
import { AppRoutes } from './router';
import { VisitorTheme } from './visitor-theme';

/** The providers every screen relies on, around the router. */
export function App() {
  useEffect(() => {
    // The running build, for support and for tests that check an update took effect.
    document.documentElement.dataset.build = __BUILD_ID__;
    startPwa();
    const stopFresh = keepForumSnapshotFresh();
    dropSnapshotOfOthers();
    return stopFresh;
  }, []);
  return (
    <ErrorBoundary fullPage>
      <ToastProvider>
        <AuthProvider>
          <VisitorTheme />
          <DataProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </DataProvider>
        </AuthProvider>
      </ToastProvider>
    </ErrorBoundary>
  );
}
