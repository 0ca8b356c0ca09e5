import { useSyncExternalStore } from 'react';
import { getPwaState, subscribePwa, type PwaState } from './pwa-store';

export function usePwa(): PwaState {
  return useSyncExternalStore(subscribePwa, getPwaState, getPwaState);
}
