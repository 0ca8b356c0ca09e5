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

/** Asks for work at idle, at most once a gap: see idleThrottle. */
export interface IdleThrottle {
  /** Runs `work` at idle (replacing work asked before and not yet run), once `gap` ms have passed since the last run. */
  ask(work: () => void): void;
  /** Drops the work asked and not yet run. */
  cancel(): void;
}

/**
 * Work asked for again and again (after each change of a burst) run at idle at most once every
 * `gap` ms, the last asked always run: the first ask waits only for idle (or `timeout` ms), later
 * ones for the gap since the last run, then for idle.
 */
export function idleThrottle(gap: number, timeout = 2_000): IdleThrottle {
  let ranAt = -Infinity;
  let pending: (() => void) | null = null;
  let cancelWait = () => undefined as void;
  const run = () => {
    const work = pending;
    pending = null;
    cancelWait = () => undefined;
    ranAt = performance.now();
    work?.();
  };
  return {
    ask(work) {
      const waiting = pending !== null;
      pending = work;
      if (waiting) return;
      const delay = ranAt + gap - performance.now();
      if (delay <= 0) {
        cancelWait = whenIdle(run, timeout);
        return;
      }
      let cancelIdle = () => undefined as void;
      const timer = setTimeout(() => (cancelIdle = whenIdle(run, timeout)), delay);
      cancelWait = () => {
        clearTimeout(timer);
        cancelIdle();
      };
    },
    cancel() {
      pending = null;
      cancelWait();
      cancelWait = () => undefined;
    },
  };
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
