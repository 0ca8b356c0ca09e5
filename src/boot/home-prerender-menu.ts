// The prerendered home page's header (a phone's Menu) before the app takes over: the body's boot
// script (forum-snapshot.ts) listens with this on `/`, so the Menu opens and closes as the app's
// does (src/components/layouts/navbar-frame.tsx), and the app then keeps the menu as it is.
import { HOME_PRERENDER_ID } from './home-prerender-names';

/** A click on the prerendered Menu button: opens or closes its menu (the element after it), and says so. */
export function togglePrerenderedMenu({ target }: Event): void {
  const toggle = (target as Element).closest?.(`#${HOME_PRERENDER_ID} .navbar-toggler`);
  const menu = toggle?.nextElementSibling;
  if (!toggle || !menu) return;
  const open = menu.classList.toggle('show');
  toggle.classList.toggle('collapsed', !open);
  toggle.setAttribute('aria-expanded', `${open}`);
}
