// The service worker: the whole app shell is precached, so every screen opens with no network.
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import {
  ATTACHMENT_CACHE,
  SAVED_ATTACHMENT_CACHE,
  FORUM_SNAPSHOT_CACHE,
  FORUM_SNAPSHOT_COOKIE,
  SNAPSHOT_ID_HEADER,
  SW_CLAIM_MESSAGE,
  snapshotUrlFor,
} from '../db/contracts';
import {
  SNAPSHOT_TEMPLATE_CSS,
  SNAPSHOT_TEMPLATE_ID,
  SNAPSHOT_TEMPLATE_STYLES,
  SNAPSHOT_TEMPLATE_TOKEN,
} from '../boot/forum-snapshot-names';
import { shellForPath, withoutHomeMarkup } from '../shared/app-shell';
import { COMPOSED_HEADER, composedPages } from './composed-pages';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** A file of the build whose name carries its content's hash (server/plugins/static-app.ts serves them so). */
const HASHED_ASSET = /^\/assets\/[\w.-]+\.(?:js|css)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

// A new version waits until the app asks it to take over (the user pressed Reload).
// A page this active worker does not control asks to be claimed (SW_CLAIM_MESSAGE): the first install's claim
// skips a page whose navigation was still under way, and a hard reload bypasses the worker.
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === SW_CLAIM_MESSAGE && self.registration.active === self.serviceWorker) event.waitUntil(self.clients.claim());
});

// Precache the app shell: scripts, styles, icons, the manifest and index.html (list made at build).
const manifest = self.__WB_MANIFEST;
// The build's hashed files never change under their name: answered as immutable whatever the host
// sent when they were precached (a static host's no-cache, vite preview's), so the page's memory
// cache keeps them across documents. A reopened /forum then takes its stylesheet (parsed once) and
// its modules from there, without a round trip through this worker (issue 64, item 1).
addPlugins([
  {
    cachedResponseWillBeUsed: async ({ cachedResponse, request }) => {
      if (!cachedResponse || !HASHED_ASSET.test(new URL(request.url).pathname)) return cachedResponse;
      if (cachedResponse.headers.get('cache-control') === IMMUTABLE) return cachedResponse;
      const headers = new Headers(cachedResponse.headers);
      headers.set('cache-control', IMMUTABLE);
      return new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
    },
  },
]);
precacheAndRoute(manifest);

/** The build's own stylesheets (a snapshot links only these). */
const precachedStyles = new Set(
  manifest
    .map((entry) => new URL(typeof entry === 'string' ? entry : entry.url, self.location.href).pathname)
    .filter((path) => /^\/assets\/[\w.-]+\.css$/.test(path)),
);

// Delete the caches of older precache formats.
cleanupOutdatedCaches();

const precachedShell = createHandlerBoundToURL('index.html');
type HandlerOptions = Parameters<typeof precachedShell>[0];
/** The app's mount point in the shell, before which the snapshot's template goes. */
const ROOT = '<div id="root"></div>';
const attribute = (value: unknown) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The cached app shell as served for this navigation's path (src/shared/app-shell.ts), changed by `edit` when given. */
async function shell(options: HandlerOptions, edit?: (page: string) => Promise<string | undefined>): Promise<Response> {
  const response = await precachedShell(options);
  const { pathname } = options.url;
  if (!response.ok || (pathname === '/' && !edit)) return response;
  try {
    const html = await response.clone().text();
    // An edit (a snapshot's template) gets the page with its module list left to the boot scripts.
    const page = (await edit?.(pathname === '/' ? html : withoutHomeMarkup(html))) ?? shellForPath(html, pathname);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(page, { status: response.status, headers });
  } catch {
    return response;
  }
}

// /forum and a post's page (no search): the app shell with the page's snapshot inside an inert
// <template>, so src/boot/forum-snapshot.ts can paint it synchronously, before the app's JavaScript
// runs, once it has checked the cookie's token against the snapshot's (the cookie goes at every sign-out).
// The page composed from a snapshot is kept while this worker lives and answered again, its body
// and the shell unread, for as long as the stored snapshot is that very one (src/sw/composed-pages.ts).
const composed = composedPages();
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && snapshotUrlFor(url.pathname, url.search) !== null,
  async (options) => {
    const url = snapshotUrlFor(options.url.pathname, options.url.search);
    const stored = droppingSnapshot || !url ? undefined : await caches.match(url, { cacheName: FORUM_SNAPSHOT_CACHE });
    // Dropped while the match was under way: nothing of it is answered.
    const snapshot = droppingSnapshot ? undefined : stored;
    return composed.answer(options.url.pathname, snapshot, () => withSnapshot(options, snapshot));
  },
);

/** The shell for this navigation with the snapshot `stored` in it (marked COMPOSED_HEADER), or without one. */
async function withSnapshot(options: HandlerOptions, stored: Response | undefined): Promise<Response> {
  let from: string | null = null;
  const response = await shell(options, async (page) => {
    if (!stored) return undefined;
    const snapshot = (await stored.json()) as { token?: unknown; css?: unknown; styles?: unknown; html?: unknown };
    if (typeof snapshot.html !== 'string' || !page.includes(ROOT) || !page.includes('</head>')) return undefined;
    // The screen's own stylesheets, linked in the head so the snapshot's first frame waits for them
    // (the app's own load of them then finds them there). One the build does not have: no snapshot.
    const styles = Array.isArray(snapshot.styles) ? snapshot.styles : [];
    if (!styles.every((href) => typeof href === 'string' && precachedStyles.has(href))) return undefined;
    const links = (styles as string[]).map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('');
    const template = `<template id="${SNAPSHOT_TEMPLATE_ID}" ${SNAPSHOT_TEMPLATE_TOKEN}="${attribute(snapshot.token)}" ${SNAPSHOT_TEMPLATE_CSS}="${attribute(snapshot.css)}" ${SNAPSHOT_TEMPLATE_STYLES}="${(styles as string[]).join(' ')}">${snapshot.html}</template>`;
    from = stored.headers.get(SNAPSHOT_ID_HEADER);
    // Replacer functions: a `$&` or `$'` in a post's text is text, not a replacement pattern.
    return page.replace('</head>', () => `${links}</head>`).replace(ROOT, () => `${template}${ROOT}`);
  });
  if (from === null || !response.ok) return response;
  // Marked only when the template is in what is answered (shell() answers the plain shell on a failure).
  const page = await response.text();
  const headers = new Headers(response.headers);
  if (page.includes(`<template id="${SNAPSHOT_TEMPLATE_ID}"`)) headers.set(COMPOSED_HEADER, from);
  return new Response(page, { status: response.status, headers });
}

// Attachments (issue 42): an address is its file's SHA-256, so a copy never goes stale. Kept after the
// first fetch (a 200 only: a 404 for a file not yet visible is asked again), at most 300 files and 60
// days, the least recently used going first, so the posts' files open offline. The app empties the
// cache at sign-in and sign-out (what one member could see is never another's).
const recentAttachments = new CacheFirst({
  cacheName: ATTACHMENT_CACHE,
  plugins: [
    new CacheableResponsePlugin({ statuses: [200] }),
    new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 24 * 60 * 60, purgeOnQuotaError: true }),
  ],
});
// A saved post's files come from their own cache first (the app keeps it, src/sync/saved-files.ts):
// the bound above never evicts them.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && /^\/api\/attachments\/[0-9a-f]{64}$/.test(url.pathname),
  async (options) => (await caches.match(options.request, { cacheName: SAVED_ATTACHMENT_CACHE })) ?? recentAttachments.handle(options),
);

// Every other navigation, a deep link included, is answered with the cached app shell;
// /api never is (no route here caches it but the attachments'): the server's answers come from the server.
registerRoute(new NavigationRoute((options) => shell(options), { denylist: [/^\/api(\/|$)/] }));

// On the first install, take control of open pages at once so they work offline from now on.
// A new build's worker also drops the forum's snapshot: whatever happened to the session under
// another build (one that knows nothing of snapshots) is never painted from an older one.
// Its cookie goes too (Cookie Store API, where the browser has it in workers): the next snapshot
// gets a new token. Activation waits at most SNAPSHOT_DROP_MS for that (the pages' reload after an
// update waits for activation); until it is done, /forum is served without a snapshot.
// The very first worker of this origin replaces no build: the snapshot the pages kept until now
// was taken by this build (its stylesheet and its cookie's token are checked before any paint), and
// dropping it sent the next reopens of /forum down the slow path (issue 64). A worker stopped
// between install and activate forgets this and drops, as before.
const SNAPSHOT_DROP_MS = 3_000;
let droppingSnapshot = false;
let replacesNoWorker = false;

self.addEventListener('install', () => {
  replacesNoWorker = self.registration.active === null;
});

self.addEventListener('activate', (event) => {
  if (replacesNoWorker) {
    event.waitUntil(self.clients.claim());
    return;
  }
  const cookies = (self as unknown as { cookieStore?: { delete(name: string): Promise<void> } }).cookieStore;
  droppingSnapshot = true;
  composed.clear();
  const drop = Promise.allSettled([caches.delete(FORUM_SNAPSHOT_CACHE), cookies?.delete(FORUM_SNAPSHOT_COOKIE)]).then(() => {
    droppingSnapshot = false;
  });
  const bounded = Promise.race([drop, new Promise((resolve) => setTimeout(resolve, SNAPSHOT_DROP_MS))]);
  event.waitUntil(bounded.then(() => self.clients.claim()));
});

// A system notification opened: close it, then show its post in an open tab of the app (focused
// and moved there), or in a new window when none is open.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = new URL(typeof data?.url === 'string' ? data.url : '/forum', self.location.origin);
  // Only this app's own pages.
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => new URL(client.url).origin === url.origin);
      if (!open) return void (await self.clients.openWindow(url.href));
      const focused = await open.focus();
      await focused.navigate(url.href).catch(() => self.clients.openWindow(url.href));
    }),
  );
});
