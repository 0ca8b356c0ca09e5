// Themes: a member's choice of light, dark or the system's colours (a preference that follows them to
// every device), kept in a file of its own with no imports, so the head's boot script
// (src/boot/theme.ts) and the app's first chunk hold these few names and nothing else.

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
/** What the page is drawn in: a Theme with `system` resolved through prefers-color-scheme. */
export type ColorMode = 'light' | 'dark';

/** The labels of Profile's "Theme" control, in order. */
export const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/**
 * The cookie the boot script reads before the first paint: the signed-in member's theme on this
 * device (absent for visitors: `system`). A cookie, not localStorage, for the same reason as the
 * forum snapshot's (the first read of localStorage loads the whole 4 MB `posts` mirror). The app
 * writes it whenever the member's theme changes here or arrives from another device, and removes
 * it at sign-out.
 */
export const THEME_COOKIE = 'insight-theme';

/** The browser's theme colour (meta theme-color, the manifest's theme_color) in each mode. */
export const THEME_COLORS: Record<ColorMode, { theme: string; background: string }> = {
  light: { theme: '#3b32b8', background: '#f6f7fb' },
  dark: { theme: '#151934', background: '#0f1222' },
};

export function resolveTheme(theme: Theme, prefersDark: boolean): ColorMode {
  if (theme === 'system') return prefersDark ? 'dark' : 'light';
  return theme;
}
