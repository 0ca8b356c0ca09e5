import { useEffect, useEffectEvent, useState } from 'react';
import { onTablesWritten } from '../db/storage/table-writes';
import { coalescedReads } from '../lib/coalesced-reads';

/**
 * A live value, like useLiveQuery's, for a read whose cost grows with the data: read at once, then
 * again after writes to `tables` in any tab, coalesced (lib/coalesced-reads.ts: never sooner than
 * four times the last read's duration, and always after the last write of a burst). useLiveQuery
 * re-reads at every commit: while another tab imported 100,000 posts in 200 commits, what's new
 * re-read every post imported so far at each, and the import took 610 s instead of 20.
 * `key` names the question (a new key reads afresh); `read` undefined reads nothing.
 */
export function useCoalescedLiveValue<T>(read: (() => Promise<T>) | undefined, tables: readonly string[], key: string): T | undefined {
  const [answer, setAnswer] = useState<{ key: string; value: T }>();
  const enabled = read !== undefined;
  const readLatest = useEffectEvent(() => (read ? read() : undefined));
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    const reads = coalescedReads(async () => {
      const value = await readLatest();
      if (live && value !== undefined) setAnswer({ key, value });
    });
    const stop = onTablesWritten(tables, reads.changed);
    return () => {
      live = false;
      reads.stop();
      stop();
    };
  }, [enabled, key, tables]);
  return answer?.key === key ? answer.value : undefined;
}
