// The service worker: the whole app shell is precached, so every screen opens with no network.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// A new version waits until the app asks it to take over (the user pressed Reload).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Precache the app shell: scripts, styles, icons, the manifest and index.html (list made at build).
precacheAndRoute(self.__WB_MANIFEST);

// Delete the caches of older precache formats.
cleanupOutdatedCaches();

// Every navigation, a deep link such as /forum included, is answered with the cached app shell;
// /api never is (and no route here caches it): the server's answers always come from the server.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(\/|$)/] }));

// On the first install, take control of open pages at once so they work offline from now on.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
