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
  const keep = () => {
    loading ??= load().then(
      (Component) => (loaded = Component),
      (error: unknown) => {
        loading = undefined; // a failed load (a chunk missing after a deploy) may be tried again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => keep().then((Component) => ({ default: Component })));
  function Component() {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return { path, load: keep, Component };
}
