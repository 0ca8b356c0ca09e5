import { useSyncExternalStore } from 'react';
import { getPwaState, subscribePwa, type PwaState } from './pwa-store';

export function usePwa(): PwaState {
  return useSyncExternalStore(subscribePwa, getPwaState, getPwaState);
}

// Whether the browser believes it is online: a hook every screen may use (src/hooks).
export { useOnline } from '../../hooks/use-online';
