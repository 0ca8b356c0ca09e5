// Waiting for the first paint, shared by the boot scripts (theme.ts through home-prerender-head.ts,
// and forum-snapshot.ts), which inline it: a few lines, no imports.

/** The longest the wait lasts (a page in a background tab is not painted until it is shown). */
export const FIRST_PAINT_MAX_MS = 3_000;

/**
 * Runs `callback` once, after the page's first contentful paint has reached the screen (its paint
 * timing entry, which comes once the frame is presented: a frame callback would run before it), or
 * after a frame where paint timing is missing, at the latest after FIRST_PAINT_MAX_MS.
 */
export function afterFirstPaint(callback: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      run();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    requestAnimationFrame(() => setTimeout(run, 0));
  }
  setTimeout(run, FIRST_PAINT_MAX_MS);
}
