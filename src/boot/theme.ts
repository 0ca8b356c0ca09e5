// Runs in the head, before anything is painted (a classic, parser-blocking script; a file because
// the CSP allows no inline script): draws the page in the member's theme from THEME_COOKIE and the
// system's setting, so neither the app nor the forum snapshot ever flashes the other mode. It also
// keeps the prerendered home page to `/` and preloads the app's modules (home-prerender-head.ts).
// The build bundles it on its own, with what it imports inlined (vite.config.ts).
import { applyColorMode, themeFromCookie } from './color-mode';
import { bootHomePrerender } from './home-prerender-head';

// The prerendered home page shows on `/` only; the app's modules preload (after its first frame there).
try {
  bootHomePrerender();
} catch {
  // The class that hides it off `/` is set first; only the preloads can be missing (the app still loads).
}

try {
  applyColorMode(themeFromCookie());
} catch {
  // The light theme then, as before dark mode existed.
}
