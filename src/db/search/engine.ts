// Keeps a SearchIndex equal to the approved posts in IndexedDB: a read of every approved post at
// start, then a live query on the `rev` index for everything written after it (new posts, approvals,
// rejections, imports), in this tab or any other. Runs in the search worker, or in-process where
// workers are unavailable (unit tests).

import Dexie, { liveQuery, type Subscription } from 'dexie';
import type { InsightDatabase, PostRow } from '../core/schema';
import { pagesByKey } from '../core/paging';
import { SearchIndex } from './search-index';
import { normalizeSearch } from './text';
import type { CategoryFilter } from '../types';

const LOAD_CHUNK = 2_000;

export class SearchEngine {
  private readonly index = new SearchIndex();
  private lastRev = 0;
  private subscription: Subscription | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: InsightDatabase,
    private readonly onChange: () => void = () => undefined,
  ) {}

  /**
   * Loads the index once (later calls wait for the same load) and starts following changes.
   * A failed load is forgotten, so the next search tries again instead of failing forever.
   */
  start(): Promise<void> {
    this.loading ??= this.load()
      .then(() => this.follow())
      .catch((error: unknown) => {
        this.loading = undefined;
        throw error;
      });
    return this.loading;
  }

  /** Ids of approved posts matching the query (case-insensitive) and category, newest first. */
  async search(query: string, category: CategoryFilter): Promise<number[]> {
    await this.start();
    return this.index.search(normalizeSearch(query), category);
  }

  get size(): number {
    return this.index.size;
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  private async load(): Promise<void> {
    const { db } = this;
    // The change number first, then the posts in short read transactions (a long one would make
    // every like wait for it). A post approved or rejected meanwhile has a higher number, so
    // following from this number afterwards brings the index up to date.
    const last = await db.posts.orderBy('rev').lastKey();
    this.lastRev = typeof last === 'number' ? last : 0;
    const rows: PostRow[] = [];
    const pages = pagesByKey<PostRow, number>(
      (after) =>
        db.posts
          .where('[status+id]')
          .between(['approved', after ?? Dexie.minKey], ['approved', Dexie.maxKey], false, true)
          .limit(LOAD_CHUNK)
          .toArray(),
      (row) => row.id,
    );
    for await (const chunk of pages) rows.push(...chunk);
    this.index.load(rows);
    this.changed();
  }

  private follow(): void {
    const since = this.lastRev;
    this.subscription?.unsubscribe();
    this.subscription = liveQuery(() => this.db.posts.where('rev').above(since).toArray()).subscribe({
      next: (rows) => {
        if (rows.length === 0) return;
        for (const row of rows) {
          this.index.upsert(row);
          if ((row.rev ?? 0) > this.lastRev) this.lastRev = row.rev ?? 0;
        }
        this.changed();
        this.follow();
      },
      error: () => {
        // The feed stopped (the connection was lost or closed): the next search loads afresh.
        this.subscription = undefined;
        this.loading = undefined;
      },
    });
  }

  private changed(): void {
    this.onChange();
  }
}
