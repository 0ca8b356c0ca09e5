// The head's boot script's part (theme.ts) for the prerendered home page (vite.config.ts): whether
// it shows, and the app's module preloads, which on `/` wait for its first frame.
import { FORUM_SNAPSHOT_COOKIE } from '../db/contracts';
import { THEME_COOKIE } from '../shared/theme';
import { afterFirstPaint } from './first-paint';
import { HOME_PRERENDER_OFF_CLASS } from './home-prerender-names';
import { preloadModules, snapshotMayPaint } from './module-preloads';

/**
 * Whether this page may show the prerendered home page (a visitor's: Login and Join Now): on `/`
 * only, and not where a member's cookie says someone signs in here (they would see the visitor's
 * calls to action until the app takes over).
 */
export function showsHomePrerender(pathname: string, cookie: string): boolean {
  if (pathname !== '/') return false;
  return ![THEME_COOKIE, FORUM_SNAPSHOT_COOKIE].some((name) => new RegExp(`(?:^|; )${name}=[^;]`).test(cookie));
}

/**
 * Hides the prerendered page off `/` (before the first paint: this runs in the head), and preloads
 * the app's modules that `script` lists: at once, as the page's own tags would, but on `/` once the
 * prerendered page's first paint is on screen, so that paint (Lighthouse's FCP and LCP) waits for,
 * and shares the network with, no script download; and where a snapshot may paint, not here:
 * forum-snapshot.ts preloads them with the app's start (after the snapshot's frame) or at once.
 */
export function bootHomePrerender(): void {
  let home = false;
  let snapshot = false;
  try {
    home = showsHomePrerender(location.pathname, document.cookie);
    snapshot = snapshotMayPaint(location.pathname, location.search, location.hash, document.cookie);
  } catch {
    // Hidden then, and preloaded at once.
  }
  if (!home) document.documentElement.classList.add(HOME_PRERENDER_OFF_CLASS);
  if (home) afterFirstPaint(preloadModules);
  else if (!snapshot) preloadModules();
}
