import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType, type Location } from 'react-router-dom';

const STORE_KEY = 'insight-scroll';
/** How long a restored position keeps being put back while the page's content is still arriving. */
const RESTORE_FOR_MS = 1_000;
/** What a person does that ends the restoring: scroll, touch, press a key or a pointer. */
const STOP_ON = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

function storedPositions(): Map<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '{}') as Record<string, number>));
  } catch {
    return new Map();
  }
}

/**
 * The key a history entry's position is kept under: the router's own, or, for the entry a page load
 * opened (the router calls every such entry "default"), its address, so one loaded page never gets
 * another's position.
 */
function entryKey(location: Location): string {
  return location.key === 'default' ? `default ${location.pathname}${location.search}` : location.key;
}

/** Whether this page load returns to an entry (a reload, Back or Forward), rather than opening a new one (an address, a link, a shortcut). */
function returningLoad(): boolean {
  const [entry] = (performance.getEntriesByType?.('navigation') ?? []) as PerformanceNavigationTiming[];
  return entry?.type !== 'navigate';
}

/**
 * Scroll on navigation, as a person expects it: a new screen starts at the top (or at its #anchor);
 * Back and Forward (and a reload) return to where that entry was left. A change of the query or
 * hash on the same screen (a search, a page of replies) leaves the scroll alone. Positions are kept
 * per history entry for the tab's session.
 */
export function ScrollMemory() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const current = useRef(entryKey(location));
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    const { scrollRestoration } = window.history;
    window.history.scrollRestoration = 'manual';
    const remember = () => positions.current?.set(current.current, window.scrollY);
    // Written as the page goes, from what the scroll events recorded: reading window.scrollY here
    // would force a style and layout of the whole page being left (20 ms of the /forum reopen's
    // 1x time in the outside probe's trace, issue 64), for a value the scroll listener already holds.
    const save = () => {
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify(Object.fromEntries(positions.current ?? [])));
      } catch {
        // Storage full or unavailable: positions are kept for this page only.
      }
    };
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = scrollRestoration;
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= storedPositions();
    current.current = entryKey(location);
    const samePath = previousPath.current === location.pathname;
    const first = previousPath.current === null;
    previousPath.current = location.pathname;
    const saved = positions.current.get(current.current);
    // The page's first screen restores only where the load returned to its entry.
    if (saved !== undefined && (first ? returningLoad() : navigationType === 'POP')) return restore(saved);
    if (!samePath && !first && !location.hash) window.scrollTo(0, 0);
    return undefined;
  }, [location, navigationType]);

  return null;
}

/** Scrolls to `y`, again on each frame while the page is still too short for it (its content loading), until the member scrolls or points. */
function restore(y: number): () => void {
  const until = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of STOP_ON) window.removeEventListener(type, stop);
  };
  const step = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 1 && performance.now() < until) frame = requestAnimationFrame(step);
    else stop();
  };
  for (const type of STOP_ON) window.addEventListener(type, stop, { passive: true });
  step();
  return stop;
}
