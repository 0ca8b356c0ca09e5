import { useEffect, useRef, useState } from 'react';
import { afterFirstPosts } from '../db/storage/idle';

/**
 * A module loaded once the first posts are painted and the browser is idle (or after `waitMs` on
 * screens without a list): what only enriches a screen (saved marks, what's new, the theme
 * follower) stays out of the JavaScript fetched before the forum's first post. Undefined until it
 * arrives (or if it failed to load: the screen works without it). `load` is read once.
 */
export function useAfterFirstPosts<T>(load: () => Promise<T>, waitMs = 1_500): T | undefined {
  const [loaded, setLoaded] = useState<{ value: T }>();
  // Held in a ref: the first `load` given is the one used (a module's import).
  const loader = useRef(load);
  useEffect(() => {
    let live = true;
    const cancel = afterFirstPosts(waitMs, () => {
      loader.current().then(
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
  }, [waitMs]);
  return loaded?.value;
}
