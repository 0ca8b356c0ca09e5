import { useSyncExternalStore } from 'react';
import type { ColorMode } from '../shared/theme';

const read = (): ColorMode => (document.documentElement.getAttribute('data-bs-theme') === 'dark' ? 'dark' : 'light');

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
  return () => observer.disconnect();
}

/** The mode the page is drawn in now (data-bs-theme on <html>), for what draws its own colours (charts). */
export function useColorMode(): ColorMode {
  return useSyncExternalStore(subscribe, read, () => 'light');
}
