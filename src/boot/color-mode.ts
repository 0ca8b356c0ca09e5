// The page's colour mode, applied in one place: the head's boot script (src/boot/theme.ts), before
// the first paint, and the app whenever the member's theme or the system's setting changes. It
// sets data-bs-theme (Bootstrap's colour modes), color-scheme (form controls, scroll bars), the
// browser's theme colour and the manifest that matches (manifest-dark.webmanifest in dark).
// Names only and a few lines: the boot script inlines it and must stay tiny.
import { isTheme, resolveTheme, THEME_COLORS, THEME_COOKIE, type ColorMode, type Theme } from '../shared/theme';

export const DARK_QUERY = '(prefers-color-scheme: dark)';
export const MANIFESTS: Record<ColorMode, string> = { light: '/manifest.webmanifest', dark: '/manifest-dark.webmanifest' };

/** The member's theme as THEME_COOKIE says ('system' without one, or with a value this build does not know). */
export function themeFromCookie(): Theme {
  const value = new RegExp(`(?:^|; )${THEME_COOKIE}=([a-z]+)`).exec(document.cookie)?.[1];
  return isTheme(value) ? value : 'system';
}

export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** Draws the page in `theme` (system resolved now) and returns the mode it chose. */
export function applyColorMode(theme: Theme): ColorMode {
  const mode = resolveTheme(theme, systemPrefersDark());
  const root = document.documentElement;
  if (root.getAttribute('data-bs-theme') !== mode) root.setAttribute('data-bs-theme', mode);
  root.style.colorScheme = mode;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[mode].theme);
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', mode);
  const manifest = document.querySelector('link[rel="manifest"]');
  if (manifest && manifest.getAttribute('href') !== MANIFESTS[mode]) manifest.setAttribute('href', MANIFESTS[mode]);
  return mode;
}
