import { useLiveQuery } from 'dexie-react-hooks';
import { isSilenced } from '../db/preferences/preferences';

/** True while the server says the staff silenced this member (their preferences, pulled live). */
export function useSilenced(email: string): boolean {
  return useLiveQuery(() => isSilenced(email).catch(() => false), [email]) ?? false;
}
