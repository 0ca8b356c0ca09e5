// The head's boot script's part (theme.ts) for the prerendered home page (vite.config.ts): whether
// it shows, and the app's module preloads, which on `/` wait for its first frame.
import { FORUM_SNAPSHOT_COOKIE } from '../db/contracts';
import { THEME_COOKIE } from '../shared/theme';
import { afterFirstPaint } from './first-paint';
import { HOME_PRERENDER_OFF_CLASS, MODULE_PRELOADS_ATTRIBUTE } from './home-prerender-names';

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
 * and shares the network with, no script download.
 */
export function bootHomePrerender(script: Element | null): void {
  let home = false;
  try {
    home = showsHomePrerender(location.pathname, document.cookie);
  } catch {
    // Hidden then.
  }
  if (!home) document.documentElement.classList.add(HOME_PRERENDER_OFF_CLASS);
  const modules = script?.getAttribute(MODULE_PRELOADS_ATTRIBUTE)?.split(' ') ?? [];
  const preload = () => {
    for (const href of modules) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = 'anonymous';
      link.href = href;
      document.head.appendChild(link);
    }
  };
  if (home) afterFirstPaint(preload);
  else preload();
}
