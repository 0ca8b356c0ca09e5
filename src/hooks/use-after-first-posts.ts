import { useEffect, useState } from 'react';
import { afterFirstPosts } from '../db/core/idle';

/**
 * A module loaded once the first posts are painted and the browser is idle (or after `waitMs` on
 * screens without a list): what only enriches a screen (saved marks, what's new, the theme
 * follower) stays out of the JavaScript fetched before the forum's first post. Undefined until it
 * arrives (or if it failed to load: the screen works without it). `load` is read once.
 */
export function useAfterFirstPosts<T>(load: () => Promise<T>, waitMs = 1_500): T | undefined {
  const [loaded, setLoaded] = useState<{ value: T }>();
  useEffect(() => {
    let live = true;
    const cancel = afterFirstPosts(waitMs, () => {
      load().then(
        (value) => {
          if (live) setLoaded({ value });
        },
        () => undefined,
      );
    });
    return () => {
      live = false;
      cancel();
    };
    // `load` is read once: a module's import.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return loaded?.value;
}
