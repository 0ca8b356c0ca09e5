// The app's side of the prerendered home page (vite.config.ts writes it into index.html): removed
// at once where it is hidden (off `/`), and on `/` by the home page in the commit that draws it.
import { HOME_PRERENDER_ID, HOME_PRERENDER_OFF_CLASS } from './home-prerender-names';

/** Removes the prerendered home page (if it is still there), moving its focus to the app's same control. Safe to call any time. */
export function releaseHomePrerender(): void {
  const prerender = document.getElementById(HOME_PRERENDER_ID);
  const active = document.activeElement;
  const twin = prerender && active && prerender.contains(active) ? sameControl(prerender, active) : undefined;
  prerender?.remove();
  document.documentElement.classList.remove(HOME_PRERENDER_OFF_CLASS);
  twin?.focus({ preventScroll: true });
}

/** The app's control (in #root) that draws `active` of the prerendered page: same tag, link, name and text, and place among those. */
function sameControl(prerender: Element, active: Element): HTMLElement | undefined {
  const key = (element: Element) =>
    [element.tagName, element.getAttribute('href'), element.getAttribute('aria-label'), element.textContent].join('\u0000');
  const like = (within: Element | null) =>
    Array.from(within?.querySelectorAll<HTMLElement>(active.tagName) ?? []).filter((element) => key(element) === key(active));
  return like(document.getElementById('root'))[like(prerender).indexOf(active as HTMLElement)];
}

/** Whether the prerendered page's menu `id` is open (its Menu button works before the app takes over): the app's header opens as it was. */
export function prerenderedMenuOpen(id: string): boolean {
  if (typeof document === 'undefined') return false;
  return Boolean(document.getElementById(HOME_PRERENDER_ID)?.querySelector(`[id="${id}"]`)?.classList.contains('show'));
}

/** At start: the prerendered page goes at once unless it is on screen (then the home page removes it). */
export function releaseHiddenHomePrerender(): void {
  if (window.location.pathname !== '/' || document.documentElement.classList.contains(HOME_PRERENDER_OFF_CLASS)) releaseHomePrerender();
}
