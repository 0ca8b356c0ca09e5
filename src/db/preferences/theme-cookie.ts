// The theme cookie (THEME_COOKIE of shared/theme.ts): the signed-in member's theme on this
// device, read by the boot script before the first paint. Written when the theme changes here or
// arrives from another device, removed at sign-out. No Dexie here: session.ts removes it synchronously.

import { isTheme, THEME_COOKIE, type Theme } from '../../shared/theme';

/** 400 days, the longest lifetime browsers keep a cookie for. */
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

const hasCookies = () => typeof document !== 'undefined';

/** Writes the cookie (or, for null, removes it); path=/, 400 days, SameSite=Lax. */
export function writeThemeCookie(theme: Theme | null): void {
  if (!hasCookies()) return;
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = theme
    ? `${THEME_COOKIE}=${theme}; path=/; max-age=${MAX_AGE_SECONDS}; samesite=lax${secure}`
    : `${THEME_COOKIE}=; path=/; max-age=0; samesite=lax${secure}`;
}

/** The theme the cookie holds, if any (what the boot script painted with). */
export function readThemeCookie(): Theme | undefined {
  if (!hasCookies()) return undefined;
  const match = new RegExp(`(?:^|; )${THEME_COOKIE}=([a-z]+)(?:;|$)`).exec(document.cookie);
  return isTheme(match?.[1]) ? match[1] : undefined;
}
