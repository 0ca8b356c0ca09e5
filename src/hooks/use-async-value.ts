import { useEffect, useEffectEvent, useState } from 'react';
import { latestOnly } from '../lib/latest-only';

/** One answer of an async read, and which question (`key`) it answers. */
export interface AsyncAnswer<T> {
  key: string;
  value: T;
  /** Counts the answers so far, so a caller can re-read rows even when the key stays the same. */
  revision: number;
}

interface AsyncOptions<T> {
  /** Names the question: a new key asks again. */
  key: string;
  /** Any value whose change asks the same question again (an index that changed, say). */
  refresh?: unknown;
  /** The answer to use when the read fails; without it a failure keeps the previous answer. */
  fallback?: T;
}

/**
 * The one way to read async data that is not a live IndexedDB query (those use useLiveQuery, or
 * usePagedLiveQuery for lists): the search worker's answers, counts re-read on purpose, browser
 * APIs. Only the newest question's answer is kept (a late answer never replaces a newer one);
 * until it arrives the previous answer stays, its `key` telling which question it was for.
 * `read` undefined asks nothing (and drops what is in flight).
 */
export function useAsyncValue<T>(read: (() => Promise<T>) | undefined, options: AsyncOptions<T>): AsyncAnswer<T> | undefined {
  const { key, refresh } = options;
  const [answer, setAnswer] = useState<AsyncAnswer<T> | undefined>(undefined);
  const [answers] = useState(latestOnly);
  const enabled = read !== undefined;
  const ask = useEffectEvent(() => {
    if (!read) return;
    const settle = (value: T) => setAnswer((previous) => ({ key, value, revision: (previous?.revision ?? 0) + 1 }));
    answers.run(read(), settle, () => {
      if (options.fallback !== undefined) settle(options.fallback);
    });
  });
  useEffect(() => {
    if (enabled) ask();
    else answers.cancel();
  }, [answers, enabled, key, refresh]);
  useEffect(() => () => answers.cancel(), [answers]);
  return answer;
}
