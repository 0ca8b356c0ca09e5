import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { OfflineReadyNotice } from '../features/pwa/offline-ready-notice';
import { ScrollMemory } from './scroll-memory';

const titles: Record<string, string> = {
  '/': 'Insight Exchange: the community for market research professionals',
  '/about': 'About Us · Insight Exchange',
  '/login': 'Sign In · Insight Exchange',
  '/forum': 'Forum · Insight Exchange',
  '/profile': 'Profile · Insight Exchange',
  '/admin': 'Pending Posts · Insight Exchange',
};

/** Around every route: page titles, focus and scroll on navigation, the offline-ready notice. */
export function RootRoute() {
  const { pathname } = useLocation();
  const first = useRef(true);
  // Before any page's own effects, so a page that names itself (a post's title) has the last word.
  useLayoutEffect(() => {
    document.title = titles[pathname] ?? 'Insight Exchange';
  }, [pathname]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Move focus to the new page so screen readers announce it (not on the first load).
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
  return (
    <>
      <Outlet />
      <ScrollMemory />
      <OfflineReadyNotice />
    </>
  );
}
