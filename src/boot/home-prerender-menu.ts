// The prerendered home page's clicks before the app takes over: the body's boot script
// (forum-snapshot.ts) listens with this on `/`, so the header's Menu (a phone's) opens and closes as
// the app's does (src/components/layouts/navbar-frame.tsx), and the app then keeps the menu as it
// is; and the links that go nowhere yet (the footer's social links) stay where they are, as in the
// app (src/components/layouts/public-footer.tsx), instead of adding `#` to the address.
import { HOME_PRERENDER_ID } from './home-prerender-names';

/** A click on the prerendered page: a link to `#` does nothing; the Menu button opens or closes its menu (the element after it), and says so. */
export function handlePrerenderedClick(event: Event): void {
  const hit = (event.target as Element).closest?.(`#${HOME_PRERENDER_ID} :is(a[href="#"], .navbar-toggler)`);
  const menu = hit?.nextElementSibling;
  if (hit?.tagName === 'A') return event.preventDefault();
  if (!hit || !menu) return;
  const open = menu.classList.toggle('show');
  hit.classList.toggle('collapsed', !open);
  hit.setAttribute('aria-expanded', `${open}`);
}
