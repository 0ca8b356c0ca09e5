// Running work when the browser is idle, in one place: requestIdleCallback where it exists, a
// short timer elsewhere (Safari, Node). No Dexie here, so screens may import it freely.

/** Runs `callback` once the browser is idle, or after `timeout` ms at the latest; returns a cancel. */
export function whenIdle(callback: () => void, timeout = 2_000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, Math.min(timeout, 200));
  return () => clearTimeout(handle);
}

/** The performance mark set once the forum's first page of posts is on screen. */
export const FIRST_POSTS_MARK = 'insight:first-posts';

/** Marks "the first page of posts is painted" (once): start-up work that can wait waits for it. */
export function markFirstPostsShown(): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(FIRST_POSTS_MARK, 'mark').length > 0) return;
  performance.mark(FIRST_POSTS_MARK);
}

/**
 * Calls `then` once the first page of posts is painted (markFirstPostsShown), or after `waitMs`, and
 * then the browser is idle (or `idleMs` has passed); returns a cancel.
 */
export function afterFirstPosts(waitMs: number, then: () => void, idleMs?: number): () => void {
  let cancelIdle: (() => void) | undefined;
  let observer: PerformanceObserver | undefined;
  const idle = () => {
    if (cancelIdle) return;
    clearTimeout(timer);
    observer?.disconnect();
    cancelIdle = whenIdle(then, idleMs);
  };
  const timer = setTimeout(idle, waitMs);
  const marked = () => typeof performance !== 'undefined' && performance.getEntriesByName(FIRST_POSTS_MARK, 'mark').length > 0;
  if (marked()) idle();
  else if (typeof PerformanceObserver !== 'undefined') {
    observer = new PerformanceObserver(() => {
      if (marked()) idle();
    });
    observer.observe({ type: 'mark' });
  }
  return () => {
    clearTimeout(timer);
    observer?.disconnect();
    cancelIdle?.();
  };
}
