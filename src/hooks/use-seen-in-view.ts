import { useEffect, useEffectEvent, type RefObject } from 'react';

/** How much of an item must have been on screen for it to count as seen. */
const SEEN_RATIO = 0.5;

/**
 * Calls `onSeen` with the keys of the elements under `root` matching `selector` (the key read
 * from `attribute`) once each has been at least half in view. Re-scans when `version` changes.
 */
export function useSeenInView(
  root: RefObject<HTMLElement | null>,
  selector: string,
  attribute: string,
  version: unknown,
  onSeen: (keys: string[]) => void,
): void {
  const report = useEffectEvent(onSeen);
  useEffect(() => {
    const element = root.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const keys: string[] = [];
        for (const entry of entries) {
          if (!entry.isIntersecting || entry.intersectionRatio < SEEN_RATIO) continue;
          observer.unobserve(entry.target);
          const key = entry.target.getAttribute(attribute);
          if (key) keys.push(key);
        }
        if (keys.length) report(keys);
      },
      { threshold: SEEN_RATIO },
    );
    element.querySelectorAll(selector).forEach((item) => observer.observe(item));
    return () => observer.disconnect();
  }, [root, selector, attribute, version]);
}
