import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { readSilence } from '../db/preferences/preferences';

/** What the banner says of a silence: why, and until when (null: until the staff lift it). */
export type SilenceShown = { reason: string | null; until: number | null };

/**
 * The staff's silence of this member while it lasts (their preferences, pulled live), else null;
 * read again at its end, so the banner goes and New Post comes back without a reload.
 */
export function useSilence(email: string): SilenceShown | null {
  const [tick, setTick] = useState(0);
  const silence = useLiveQuery(() => readSilence(email).catch(() => null), [email, tick]) ?? null;
  const until = silence?.until ?? null;
  useEffect(() => {
    if (until === null) return undefined;
    // setTimeout holds at most 2^31-1 ms (24.8 days): a longer wait is taken in steps.
    const timer = setTimeout(() => setTick((count) => count + 1), Math.min(Math.max(until - Date.now(), 0) + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until]);
  return silence;
}
