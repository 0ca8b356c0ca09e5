// The names the home page's prerendered markup shares, each written once: the build (vite.config.ts
// writes the markup into index.html and lists the app's modules), the head's boot script (theme.ts,
// with home-prerender-head.ts: hides the markup off `/`, preloads the modules), the stylesheet
// (main.scss), the forum's boot script (forum-snapshot.ts: starts the app after the markup painted)
// and the app (main.tsx and the home page: remove it as they take over).
// Constants only: the boot scripts inline what they use and must stay tiny.

/** The element that holds the home page as the build rendered it, before `#root`. */
export const HOME_PRERENDER_ID = 'home-prerender';

/** The class on `<html>` that hides the prerendered home page (main.scss). */
export const HOME_PRERENDER_OFF_CLASS = 'prerender-off';

/**
 * The head's boot script's attribute that lists the app's modules (the entry first, then what it
 * imports), which it preloads: at once, or on `/` after the prerendered page painted (set by the build).
 */
export const MODULE_PRELOADS_ATTRIBUTE = 'data-modulepreload';
