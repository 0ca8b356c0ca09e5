// The forum's first page, or a post's page, painted before the app's JavaScript runs, from the
// snapshot the app keeps in Cache Storage (src/db/storage/forum-snapshot.ts). The service worker puts
// it in the page as an inert <template>; this script, parser-blocking and synchronous, shows it
// only at its own address (snapshotUrlFor: nothing after the path), only while the snapshot's cookie holds the snapshot's token (removed at every
// sign-in and sign-out), only with the same stylesheet. It reads no Web Storage (src/db owns it): the first read
// loads all of it, the 4 MB `posts` mirror included. Without the service worker it reads the cache
// itself. The live page replaces it in the same frame (forum-snapshot-app.ts).
//
// It also starts the app (the build moves the entry module here as BOOT_ENTRY_ATTRIBUTE): at once,
// or, when a snapshot is shown, after the browser painted it, so the app's evaluation comes after.
//
// A classic script, not a module (a module would wait for the whole page): the build bundles it
// on its own with its names inlined (vite.config.ts), so it imports names and nothing else.
import { FORUM_SNAPSHOT_CACHE, FORUM_SNAPSHOT_COOKIE, snapshotUrlFor } from '../db/contracts';
import {
  BOOT_ENTRY_ATTRIBUTE,
  SNAPSHOT_MAX_MS,
  SNAPSHOT_ON_CLASS,
  SNAPSHOT_PATH_ATTRIBUTE,
  SNAPSHOT_STYLE_ATTRIBUTE,
  SNAPSHOT_TEMPLATE_CSS,
  SNAPSHOT_TEMPLATE_ID,
  SNAPSHOT_TEMPLATE_STYLES,
  SNAPSHOT_TEMPLATE_TOKEN,
  SNAPSHOT_VIEW_ID,
} from './forum-snapshot-names';
import { afterFirstPaint } from './first-paint';
import { HOME_PRERENDER_ID, HOME_PRERENDER_OFF_CLASS } from './home-prerender-names';
import { handlePrerenderedClick } from './home-prerender-menu';
import { preloadModules, snapshotMayPaint } from './module-preloads';

const script = document.currentScript;
const page = document.documentElement;
const entry = script?.getAttribute(BOOT_ENTRY_ATTRIBUTE);
let shown = false;
// A module script element, not import(): the dev server would rewrite an import() into a module
// import, which a classic script cannot hold. Same credentials mode as the entry's modulepreload.
const start = () => {
  if (!entry) return;
  const tag = document.createElement('script');
  tag.type = 'module';
  tag.crossOrigin = 'anonymous';
  tag.src = entry;
  document.head.appendChild(tag);
};
const template = document.getElementById(SNAPSHOT_TEMPLATE_ID) as HTMLTemplateElement | null;
template?.remove();
try {
  const url = snapshotUrlFor(location.pathname, location.search, location.hash);
  if (url) {
    const token = new RegExp(`(?:^|; )${FORUM_SNAPSHOT_COOKIE}=([0-9a-f]{32})(?:;|$)`).exec(document.cookie)?.[1];
    const css = document.querySelector('link[rel="stylesheet"]');
    // Painted only once every stylesheet it was taken with is in the page (the service worker links a post page's own).
    const linked = new Set(Array.from(document.querySelectorAll('link[rel="stylesheet"]'), (link) => link.getAttribute('href')));
    const show = (owner: unknown, stylesheet: unknown, styles: unknown, fill: (view: HTMLElement) => void) => {
      if (window.__snapshotDone || owner !== token || !css || stylesheet !== css.getAttribute('href')) return;
      if (
        String(styles || '')
          .split(' ')
          .some((href) => href && !linked.has(href))
      )
        return;
      const view = document.createElement('div');
      view.id = SNAPSHOT_VIEW_ID;
      view.inert = true;
      view.setAttribute(SNAPSHOT_PATH_ATTRIBUTE, location.pathname);
      fill(view);
      view.querySelectorAll<HTMLElement>(`[${SNAPSHOT_STYLE_ATTRIBUTE}]`).forEach((element) => {
        element.style.cssText = element.getAttribute(SNAPSHOT_STYLE_ATTRIBUTE) ?? '';
      });
      document.body.insertBefore(view, document.getElementById('root'));
      page.classList.add(SNAPSHOT_ON_CLASS);
      shown = true;
      setTimeout(() => {
        view.remove();
        page.classList.remove(SNAPSHOT_ON_CLASS);
      }, SNAPSHOT_MAX_MS);
    };
    if (token && template) {
      const styles = template.getAttribute(SNAPSHOT_TEMPLATE_STYLES);
      show(template.getAttribute(SNAPSHOT_TEMPLATE_TOKEN), template.getAttribute(SNAPSHOT_TEMPLATE_CSS), styles, (view) => {
        view.appendChild(template.content.cloneNode(true));
      });
    } else if (token && typeof caches !== 'undefined') {
      caches
        .match(url, { cacheName: FORUM_SNAPSHOT_CACHE })
        .then((response) =>
          response ? (response.json() as Promise<{ token?: unknown; css?: unknown; styles?: unknown; html?: unknown }>) : null,
        )
        .then((snapshot) => {
          if (!snapshot) return;
          show(snapshot.token, snapshot.css, Array.isArray(snapshot.styles) ? snapshot.styles.join(' ') : '', (view) => {
            view.innerHTML = String(snapshot.html);
          });
        })
        .catch(() => undefined);
    }
  }
} catch {
  // No snapshot then: the app paints as usual.
}
// After the snapshot's frame (rAF runs before the paint, the task after it); on `/`, once the
// prerendered home page's first paint is on screen (vite.config.ts), as its module preloads.
// The head's boot script left the modules' preloads to this script where a snapshot may paint (module-preloads.ts).
let waiting = false;
try {
  waiting = snapshotMayPaint(location.pathname, location.search, location.hash, document.cookie);
} catch {
  // Preloaded by the head then.
}
if (waiting && !shown) preloadModules();
const home = document.getElementById(HOME_PRERENDER_ID) && !page.classList.contains(HOME_PRERENDER_OFF_CLASS);
if (shown)
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (waiting) preloadModules();
      start();
    }, 0),
  );
else if (home) {
  afterFirstPaint(start);
  // Its header's Menu works, and its links to `#` stay put, before the app takes over.
  document.addEventListener('click', handlePrerenderedClick);
} else start();
