import { createBrowserRouter, Navigate } from 'react-router-dom';
import { PageLoading } from '../components/page-loading';
import { RequireAdmin } from '../features/auth/require-admin';
import { RequireAuth } from '../features/auth/require-auth';
import { HomePage } from '../pages/home';
import { PublicRoute } from './public-route';
import { RootRoute } from './root-route';
import { RouteError } from './route-error';

// The home page ships in the first chunk; every other screen, and the protected area's frame,
// loads when first visited.
export const router = createBrowserRouter([
  {
    element: <RootRoute />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        element: <PublicRoute />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'about', lazy: () => import('../pages/about').then((m) => ({ Component: m.AboutPage })) },
          { path: 'login', lazy: () => import('../pages/login').then((m) => ({ Component: m.LoginPage })) },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: () => import('./protected-route').then((m) => ({ Component: m.ProtectedRoute })),
            children: [
              { path: 'forum', lazy: () => import('../pages/forum').then((m) => ({ Component: m.ForumPage })) },
              {
                path: 'posts/:id',
                // The page's code and the Markdown renderer load side by side, and the page shows
                // once both are here: its text appears rendered, never as raw Markdown first.
                lazy: () =>
                  Promise.all([import('../pages/post'), import('../lib/markdown/render')]).then(async ([m]) => {
                    await m.markdownReady;
                    return { Component: m.PostPage };
                  }),
              },
              { path: 'profile', lazy: () => import('../pages/profile').then((m) => ({ Component: m.ProfilePage })) },
              { path: 'members/:id', lazy: () => import('../pages/member').then((m) => ({ Component: m.MemberPage })) },
              // The manifest's share_target and its New Post shortcut: New Post over the forum.
              { path: 'share', lazy: () => import('../pages/share').then((m) => ({ Component: m.SharePage })) },
              { path: 'new', lazy: () => import('../pages/share').then((m) => ({ Component: m.SharePage })) },
              {
                path: 'notifications',
                lazy: () => import('../pages/notifications').then((m) => ({ Component: m.NotificationsPage })),
              },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'admin', lazy: () => import('../pages/admin').then((m) => ({ Component: m.AdminPage })) },
                  {
                    path: 'admin/insights',
                    // Its charts (uPlot) load from inside the page, on this route only.
                    lazy: () => import('../pages/admin-insights').then((m) => ({ Component: m.AdminInsightsPage })),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
