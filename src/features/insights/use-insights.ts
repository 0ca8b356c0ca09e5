import { useCallback, useState } from 'react';
import { useAsyncValue } from '../../hooks/use-async-value';
import { loadInsights } from '../../sync/insights';
import type { Insights } from '../../shared/insights';

export type InsightsState = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ready'; insights: Insights };

const read = () =>
  loadInsights().then(
    (insights): InsightsState => ({ state: 'ready', insights }),
    (error: unknown): InsightsState => ({ state: 'error', error }),
  );

/** The insights, loaded once per visit and again on `retry`. */
export function useInsights(): InsightsState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const answer = useAsyncValue(read, { key: String(attempt) });
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const current: InsightsState = answer && answer.key === String(attempt) ? answer.value : { state: 'loading' };
  return { ...current, retry };
}
