// Runs in the head, before anything is painted (a classic, parser-blocking script; a file because
// the CSP allows no inline script): draws the page in the member's theme from THEME_COOKIE and the
// system's setting, so neither the app nor the forum snapshot ever flashes the other mode.
// The build bundles it on its own, with what it imports inlined (vite.config.ts).
import { applyColorMode, themeFromCookie } from './color-mode';

try {
  applyColorMode(themeFromCookie());
} catch {
  // The light theme then, as before dark mode existed.
}
