import { lazy, useState, type ComponentType } from 'react';

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
  const fresh = () => lazy(() => keep().then((Component) => ({ default: Component })));
  let Lazy = fresh();
  const keep = () => {
    loading ??= load().then(
      (Component) => (loaded = Component),
      (error: unknown) => {
        // A failed load (a chunk missing after a deploy, a network error) is tried again next time:
        // React.lazy keeps a failure for good, so the next mount gets a new one.
        loading = undefined;
        Lazy = fresh();
        throw error;
      },
    );
    return loading;
  };
  function Component() {
    const [Shown] = useState(() => loaded ?? Lazy);
    return <Shown />;
  }
  return { path, load: keep, Component };
}
