import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const STORE_KEY = 'insight-scroll';
/** How long a restored position keeps being put back while the page's content is still arriving. */
const RESTORE_FOR_MS = 1_000;

function storedPositions(): Map<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '{}') as Record<string, number>));
  } catch {
    return new Map();
  }
}

/**
 * Scroll on navigation, as a person expects it: a new screen starts at the top; Back and Forward
 * (and a reload) return to where that entry was left. A change of the query or hash on the same
 * screen (a search, a page of replies) leaves the scroll alone. Positions are kept per history
 * entry for the tab's session.
 */
export function ScrollMemory() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const current = useRef(location.key);
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    const { scrollRestoration } = window.history;
    window.history.scrollRestoration = 'manual';
    const remember = () => positions.current?.set(current.current, window.scrollY);
    const save = () => {
      remember();
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
    current.current = location.key;
    const samePath = previousPath.current === location.pathname;
    const first = previousPath.current === null;
    previousPath.current = location.pathname;
    const saved = positions.current.get(location.key);
    if ((navigationType === 'POP' || first) && saved !== undefined) return restore(saved);
    if (!samePath && !first && !location.hash) window.scrollTo(0, 0);
    return undefined;
  }, [location.key, location.pathname, location.hash, navigationType]);

  return null;
}

/** Scrolls to `y`, again on each frame while the page is still too short for it (its content loading), until the member scrolls. */
function restore(y: number): () => void {
  const until = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ['wheel', 'touchstart', 'keydown'] as const) window.removeEventListener(type, stop);
  };
  const step = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 1 && performance.now() < until) frame = requestAnimationFrame(step);
    else stop();
  };
  for (const type of ['wheel', 'touchstart', 'keydown'] as const) window.addEventListener(type, stop, { passive: true });
  step();
  return stop;
}
