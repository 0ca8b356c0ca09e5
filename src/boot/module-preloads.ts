// The app's module preloads, shared by the two boot scripts (theme.ts through home-prerender-head.ts,
// and forum-snapshot.ts), which inline it: a few lines, no imports but names.
import { FORUM_SNAPSHOT_COOKIE, snapshotUrlFor } from '../db/contracts';
import { MODULE_PRELOADS_ATTRIBUTE } from './home-prerender-names';

/**
 * Whether this page may paint a snapshot (forum-snapshot.ts): its address has one and the cookie
 * that lets it show is set. Its modules' preloads then wait for the app's start, after the snapshot's
 * frame, so they do not share the service worker with the stylesheet that frame waits for.
 */
export function snapshotMayPaint(pathname: string, search: string, hash: string, cookie: string): boolean {
  return snapshotUrlFor(pathname, search, hash) !== null && new RegExp(`(?:^|; )${FORUM_SNAPSHOT_COOKIE}=[^;]`).test(cookie);
}

/** Preloads the modules the head's boot script lists (the entry and its imports), as the page's own tags would. */
export function preloadModules(): void {
  const modules = document.querySelector(`script[${MODULE_PRELOADS_ATTRIBUTE}]`)?.getAttribute(MODULE_PRELOADS_ATTRIBUTE)?.split(' ') ?? [];
  for (const href of modules) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  }
}
