// The app's side of the prerendered home page (vite.config.ts writes it into index.html): removed
// at once where it is hidden (off `/`), and on `/` by the home page in the commit that draws it.
import { HOME_PRERENDER_ID, HOME_PRERENDER_OFF_CLASS } from './home-prerender-names';

/** Removes the prerendered home page (if it is still there). Safe to call any time. */
export function releaseHomePrerender(): void {
  document.getElementById(HOME_PRERENDER_ID)?.remove();
  document.documentElement.classList.remove(HOME_PRERENDER_OFF_CLASS);
}

/** At start: the prerendered page goes at once unless it is on screen (then the home page removes it). */
export function releaseHiddenHomePrerender(): void {
  if (window.location.pathname !== '/' || document.documentElement.classList.contains(HOME_PRERENDER_OFF_CLASS)) releaseHomePrerender();
}
