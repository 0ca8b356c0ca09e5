// Reading GET /api/changes ahead of what is stored: while the device stores a batch of pages, the
// next pages are fetched (each asked from the cursor of the one before), up to a bound, and the
// next batch is every page that has arrived by then. A first sync of a large forum so stores
// several pages per IndexedDB transaction; a pull of a few changes is one page, as before.

import type { PullResponse } from '../shared/protocol';

export type FetchPage = (after: number, limit: number) => Promise<PullResponse>;

export interface PullAheadOptions {
  /** The size of the first page (a device with nothing yet asks for a small one, to paint at once). */
  firstLimit: number;
  /** The size of every later page. */
  limit: number;
  /** The most pages held that are not stored yet: a batch never holds more. */
  most: number;
}

/**
 * Fetches the pages after `cursor` in order, at most `most` ahead of the caller. `take()` waits for
 * at least one page and returns every page that has arrived (oldest first, up to `most`). A failed
 * fetch is thrown by the `take()` after the pages that arrived before it. `stop()` fetches no more.
 */
export class PullAhead {
  private readonly ready: PullResponse[] = [];
  private failure: { error: unknown } | undefined;
  private fetching = false;
  private stopped = false;
  /** The cursor the next page is asked from, or undefined once the last page (more: false) arrived. */
  private nextAfter: number | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    cursor: number,
    private readonly options: PullAheadOptions,
  ) {
    this.nextAfter = cursor;
    this.fetchNext(options.firstLimit);
  }

  private fetchNext(limit: number): void {
    const after = this.nextAfter;
    if (after === undefined || this.fetching || this.stopped || this.failure || this.ready.length >= this.options.most) return;
    this.fetching = true;
    let fetched: Promise<PullResponse>;
    try {
      fetched = this.fetchPage(after, limit);
    } catch (error) {
      fetched = Promise.reject(error); // a fetch that throws at once fails like one that rejects
    }
    fetched.then(
      (page) => {
        this.fetching = false;
        this.ready.push(page);
        this.nextAfter = page.more ? page.cursor : undefined;
        this.fetchNext(this.options.limit);
        this.notify();
      },
      (error: unknown) => {
        this.fetching = false;
        this.failure = { error };
        this.notify();
      },
    );
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The pages that have arrived (at least one, oldest first), waiting for the next one if none has. */
  async take(): Promise<PullResponse[]> {
    while (this.ready.length === 0) {
      if (this.failure) throw this.failure.error;
      if (this.nextAfter === undefined) throw new Error('Every page was taken already.');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const pages = this.ready.splice(0, this.options.most);
    this.fetchNext(this.options.limit);
    return pages;
  }

  /** Fetches no more pages (a batch failed to store); a fetch under way ends unread. */
  stop(): void {
    this.stopped = true;
  }
}
