import { useEffect, useState } from 'react';
import type { Mode } from '../sync/mode';

/**
 * This device's mode (connected to its own server, or local-only), or undefined until it is known:
 * for words that differ between the two (the login page, a password's rule). The sync code loads
 * lazily, as everywhere in the UI.
 */
export function useMode(): Mode | undefined {
  const [mode, setMode] = useState<Mode | undefined>(undefined);
  useEffect(() => {
    let live = true;
    import('../sync/mode')
      .then(({ detectMode }) => detectMode())
      .then(
        (found) => live && setMode(found),
        () => live && setMode('local'),
      );
    return () => {
      live = false;
    };
  }, []);
  return mode;
}
