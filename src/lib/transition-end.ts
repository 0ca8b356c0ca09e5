// dom-helpers' transitionEnd, as react-bootstrap's Modal, Fade, Collapse and Offcanvas use it, with
// its known bug fixed (react-bootstrap/dom-helpers#184, react-bootstrap/react-bootstrap#6153; the
// fix, dom-helpers#206, is not released). The original waits for the element's `transitionend`
// and, if none came within the transition's duration, sends one itself. But it counted a
// `transitionend` bubbling up from a child (the dialog's slide, a field's focus ring) as the
// element's own, and then sent nothing; react-bootstrap ignores a child's event, so when the
// element's own never fired the exit never finished. A closed dialog stayed in the page, invisible,
// and took every click (CI saw it after Escape in pwa-update.spec.ts). Here only the element's own
// event counts. vite.config.ts resolves `dom-helpers/transitionEnd` to this file
// (scripts/dom-helpers-fix.mjs).

function parseDuration(element: HTMLElement): number {
  const value = element.style.transitionDuration || getComputedStyle(element).transitionDuration || '';
  const multiplier = value.includes('ms') ? 1 : 1000;
  return parseFloat(value) * multiplier;
}

/**
 * Calls `handler` for every `transitionend` on `element`, and sends one to it after `duration` (by
 * default the element's transition-duration) plus `padding` ms if the element has not had its own.
 * Returns the function that stops both.
 */
export default function transitionEnd(
  element: HTMLElement,
  handler: (event: TransitionEvent) => void,
  duration?: number | null,
  padding = 5,
): () => void {
  const wait = (duration ?? parseDuration(element)) || 0;
  let ended = false;
  const own = (event: Event) => {
    if (event.target === element) ended = true;
  };
  const listener = handler as EventListener;
  element.addEventListener('transitionend', own);
  element.addEventListener('transitionend', listener);
  const timer = setTimeout(() => {
    if (!ended) element.dispatchEvent(new Event('transitionend', { bubbles: true, cancelable: true }));
  }, wait + padding);
  return () => {
    clearTimeout(timer);
    element.removeEventListener('transitionend', own);
    element.removeEventListener('transitionend', listener);
  };
}
