// The app shell (the built index.html) as served for one path, by the service worker and by the
// server. Off `/` it carries neither the prerendered home page (hidden there: parsing it only
// delays the first paint) nor the head script's list of the app's modules: they become the page's
// own modulepreload tags, which the browser's preload scanner finds as the page starts, before any
// script runs, except where the service worker paints a snapshot (withoutHomeMarkup). On `/` the
// page is unchanged (its preloads wait for the prerendered page's paint).
// Plain string work on the built page, whose markup the build writes (vite.config.ts); the two
// names it finds there are defined here (src/boot/home-prerender-names.ts passes them on).

/** The element that holds the home page as the build rendered it, before `#root`. */
export const HOME_PRERENDER_ID = 'home-prerender';

/**
 * The head's boot script's attribute that lists the app's modules (the entry first, then what it
 * imports), which it preloads: at once, or on `/` after the prerendered page painted (set by the build).
 */
export const MODULE_PRELOADS_ATTRIBUTE = 'data-modulepreload';

const ROOT = '<div id="root"></div>';
const PRELOADS = new RegExp(`<script ${MODULE_PRELOADS_ATTRIBUTE}="([^"<>]*)">`);

/** The page for `pathname`: the same text on `/`, elsewhere shellOffHome's. */
export function shellForPath(html: string, pathname: string): string {
  return pathname === '/' ? html : shellOffHome(html);
}

/** The page for any path but `/`: without the home markup, with static module preloads. */
export function shellOffHome(html: string): string {
  return withStaticPreloads(withoutHomeMarkup(html));
}

/**
 * The page without the prerendered home page, its module list left to the head's boot script. The
 * service worker serves this where it puts a snapshot in the page: the boot scripts then start the
 * preloads with the app, after the snapshot's frame (src/boot/module-preloads.ts), so that frame's
 * stylesheet does not share the service worker with five scripts.
 */
export function withoutHomeMarkup(html: string): string {
  const home = html.indexOf(`<div id="${HOME_PRERENDER_ID}">`);
  const root = html.indexOf(ROOT);
  return home !== -1 && root > home ? html.slice(0, home) + html.slice(root) : html;
}

/** The head script's module list as the page's own modulepreload tags, which the preload scanner finds at once. */
function withStaticPreloads(html: string): string {
  return html.replace(PRELOADS, (_tag, list: string) => {
    const links = list
      .split(' ')
      .filter(Boolean)
      .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
    return `${links.join('\n    ')}\n    <script>`;
  });
}
