// The names the home page's prerendered markup shares, each written once: the build (vite.config.ts
// writes the markup into index.html and lists the app's modules), the head's boot script (theme.ts,
// with home-prerender-head.ts: hides the markup off `/`, preloads the modules), the stylesheet
// (main.scss), the forum's boot script (forum-snapshot.ts: starts the app after the markup painted)
// and the app (main.tsx and the home page: remove it as they take over).
// Constants only: the boot scripts inline what they use and must stay tiny.

/** The element of the home markup, and the head script's module list (src/shared/app-shell.ts, which the server reads them with). */
export { HOME_PRERENDER_ID, MODULE_PRELOADS_ATTRIBUTE } from '../shared/app-shell';

/** The class on `<html>` that hides the prerendered home page (main.scss). */
export const HOME_PRERENDER_OFF_CLASS = 'prerender-off';
