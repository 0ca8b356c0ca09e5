// Reads that follow writes without following every one: a read whose cost grows with the data
// (what's new, after another tab imported 100,000 posts in 200 commits) runs again after writes,
// but never sooner than `costFactor` times its last duration after it ended, so a burst of writes
// gives it at most 1 / (costFactor + 1) of the time; the last write of a burst is always followed
// by a read. A write while a read runs folds into one read after it.

export interface CoalescedReads {
  /** A write happened: read again, now or once the gap since the last read has passed. */
  changed(): void;
  /** Cancels the pending read; a read already under way still finishes, and nothing follows it. */
  stop(): void;
}

export interface CoalescedReadsOptions {
  /** How many times the last read's duration must pass after it before the next one (default 4). */
  costFactor?: number;
  now?: () => number;
}

/** Runs `read` now, then again as `changed()` asks, coalesced as above. */
export function coalescedReads(read: () => Promise<unknown>, options: CoalescedReadsOptions = {}): CoalescedReads {
  const { costFactor = 4, now = () => performance.now() } = options;
  let stopped = false;
  let running = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextAllowed = 0;

  const run = async (): Promise<void> => {
    running = true;
    const started = now();
    try {
      await read();
    } catch {
      // The reader reports its own errors; the next write asks again.
    } finally {
      running = false;
      const ended = now();
      nextAllowed = ended + (ended - started) * costFactor;
      if (again && !stopped) {
        again = false;
        changed();
      }
    }
  };

  function changed(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer !== undefined) return;
    const wait = nextAllowed - now();
    if (wait <= 0) {
      void run();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) void run();
    }, wait);
  }

  void run();
  return {
    changed,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
