// The Dexie database `insight-exchange`: every table, index and version lives in this file.
// A shipped version(n) is never edited; a change is version(n + 1) with its upgrade().
// It also owns the connection's life: a newer build upgrading the database closes this one.

import Dexie, { type EntityTable } from 'dexie';
import { markDatabaseOutdated } from './outdated';
import { DATABASE_NAME } from '../contracts';
import type { Post } from '../types';

/**
 * A stored post: the product.md §3 fields plus `rev`, a change number that grows with every write
 * that adds a post or changes its status (not with likes), so a reader can ask what changed.
 */
export type PostRow = Post & { rev?: number };

/** An account created on this browser; `hash` and `salt` never leave IndexedDB. */
export interface AccountRow {
  email: string;
  name: string;
  createdAt: number;
  hash?: string;
  salt?: string;
  iterations?: number;
}

/** Small named values: the seed flag, the session copy, mirror bookkeeping. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * Version 1. posts: newest-first reads of one status (`[status+id]`), of one status and category
 * (`[status+category+id]`) and of one author (`[authorEmail+id]`).
 */
export const SCHEMA_V1 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id]',
  accounts: 'email',
  meta: 'key',
} as const;

/**
 * Version 2 adds the `rev` index: the search index (a Web Worker) follows new posts and status
 * changes through it. The upgrade numbers every existing post in id order.
 */
export const SCHEMA_V2 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id], rev',
} as const;

export class InsightDatabase extends Dexie {
  posts!: EntityTable<PostRow, 'id'>;
  accounts!: EntityTable<AccountRow, 'email'>;
  meta!: EntityTable<MetaRow, 'key'>;

  constructor(name: string = DATABASE_NAME) {
    // Relaxed durability: a commit is done once the OS has the data, not after an fsync. Every
    // transaction stays atomic (a killed browser loses nothing committed); only a power cut
    // could lose the last moment's writes. Measured here: a like reached other tabs in ~130 ms
    // with fsync-per-commit, see bench/results.md for the figure with relaxed.
    super(name, { chromeTransactionDurability: 'relaxed' });
    this.version(1).stores(SCHEMA_V1);
    this.version(2)
      .stores(SCHEMA_V2)
      .upgrade(async (tx) => {
        let rev = 0;
        await tx
          .table<PostRow, number>('posts')
          .toCollection()
          .modify((post) => {
            rev += 1;
            post.rev = rev;
          });
      });
    this.on('versionchange', () => {
      // Close at once so the other tab's upgrade is never blocked, and stay closed: this code
      // only knows the old schema, so it must not write again until the page reloads.
      this.close();
      markDatabaseOutdated();
      return false;
    });
  }
}

export const db = new InsightDatabase();
