import { useLiveQuery } from 'dexie-react-hooks';
import { countFlaggedItems, listFlaggedItems } from '../../db/flags/flags';

/** The Flags queue: items with open flags, live in every admin tab. */
export function useFlaggedItems() {
  return useLiveQuery(() => listFlaggedItems(), []);
}

/** How many items have open flags (the Flags tab's count). */
export function useFlaggedCount(): number | undefined {
  return useLiveQuery(() => countFlaggedItems(), []);
}
