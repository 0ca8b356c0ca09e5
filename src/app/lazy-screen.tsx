import { lazy, useState, type ComponentType } from 'react';

/** How long after a failed load a screen's next mount tries again (React's own renders in between get the failure). */
export const RETRY_AFTER_MS = 1_000;

/** A screen's code, loaded when first visited (each loader is also started early: `preloadScreens`). */
export interface Screen {
  /** Where it shows (React Router's pattern). */
  path: string;
  load: () => Promise<ComponentType>;
}

/**
 * A screen whose code is loaded on first use. Once loaded (visited, or preloaded: preloadScreens),
 * it renders at once instead of through React.lazy: a lazy screen shows its Suspense fallback for
 * a frame even when its code is at hand, and React then keeps the fallback on screen for 300 ms
 * more (its throttle on revealing suspended content). Which of the two renders is decided once per
 * mount, so a screen is never remounted when its code arrives.
 */
export function lazyScreen(path: string, load: () => Promise<ComponentType>): Screen & { Component: ComponentType } {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  let failedAt: number | undefined;
  const fresh = () => lazy(() => keep().then((Component) => ({ default: Component })));
  let Lazy = fresh();
  const keep = () => {
    loading ??= load().then(
      (Component) => (loaded = Component),
      (error: unknown) => {
        // A failed load (a chunk missing after a deploy, a network error) is tried again by a later
        // mount (React.lazy keeps a failure for good, so that mount gets a new one).
        loading = undefined;
        failedAt = Date.now();
        throw error;
      },
    );
    return loading;
  };
  /**
   * The lazy screen a mount renders: a new one after a failure, but not for the mounts React makes
   * on its own right after it (it renders a failed subtree again at once): those get the failure,
   * which the error boundary shows, instead of a load after load without end.
   */
  const current = () => {
    if (failedAt !== undefined && Date.now() - failedAt >= RETRY_AFTER_MS) {
      failedAt = undefined;
      Lazy = fresh();
    }
    return Lazy;
  };
  function Component() {
    const [Shown] = useState(() => loaded ?? current());
    return <Shown />;
  }
  return { path, load: keep, Component };
}
