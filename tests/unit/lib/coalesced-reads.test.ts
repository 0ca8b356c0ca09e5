// Reads that follow writes, coalesced: at once when quiet, never sooner than four times the last
// read's duration after it during a burst, one read for writes made while a read runs, and always a
// read after the burst's last write.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescedReads } from '../../../src/lib/coalesced-reads';
import { deferred } from '../deferred';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 }));
afterEach(() => vi.useRealTimers());
const now = () => Date.now();

/** A read that takes `cost` ms of the (fake) clock, and notes when each run started. */
function reader(cost: number) {
  const runs: number[] = [];
  return {
    runs,
    read: () => {
      runs.push(Date.now());
      return new Promise<void>((resolve) => setTimeout(resolve, cost));
    },
  };
}

describe('coalescedReads', () => {
  it('reads at once, then after a write when the last read was long enough ago', async () => {
    const { runs, read } = reader(10);
    const reads = coalescedReads(read, { now });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([0]);
    reads.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([0, 1_000]);
    reads.stop();
  });

  it('during a burst of writes reads at most once per four times its cost, and once after the last write', async () => {
    const { runs, read } = reader(100);
    const reads = coalescedReads(read, { now });
    // 200 writes, one every 10 ms (2 s): each read (100 ms) is followed by 400 ms without one.
    for (let write = 0; write < 200; write += 1) {
      reads.changed();
      await vi.advanceTimersByTimeAsync(10);
    }
    // 2 s of writes at 100 ms a read: 5 reads instead of 200, 500 ms apart.
    expect(runs.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < runs.length; i += 1) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(500);
    // The burst's last write (at 1,990 ms) is followed by a read, then nothing more is read.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs.at(-1)!).toBeGreaterThanOrEqual(1_990);
    const settled = runs.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toHaveLength(settled);
    reads.stop();
  });

  it('folds writes made while a read runs into one read after it; stop cancels what is pending', async () => {
    const answers = [deferred<void>(), deferred<void>(), deferred<void>()];
    let started = 0;
    const reads = coalescedReads(() => answers[started++]!.promise, { now });
    expect(started).toBe(1);
    reads.changed();
    reads.changed();
    reads.changed();
    answers[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toBe(2);
    reads.changed();
    reads.stop();
    answers[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(2);
  });

  it('goes on after a read that fails', async () => {
    let calls = 0;
    const reads = coalescedReads(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('closed');
      },
      { now },
    );
    await vi.advanceTimersByTimeAsync(0);
    reads.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    reads.stop();
  });
});
