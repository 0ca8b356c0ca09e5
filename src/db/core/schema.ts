// The Dexie database `insight-exchange`: every table, index and version lives in this file.
// A shipped version(n) is never edited; a change is version(n + 1) with its upgrade().
// It also owns the connection's life: a newer build upgrading the database closes this one.

import Dexie, { type EntityTable } from 'dexie';
import { markDatabaseOutdated } from './outdated';
import { DATABASE_NAME } from '../contracts';
import type { Post } from '../types';
import type { Op } from '../../shared/protocol';

/**
 * A stored post: the product.md §3 fields plus `rev`, a change number that grows with every write
 * that adds a post or changes its status (not with likes), so a reader can ask what changed.
 */
export type PostRow = Post & { rev?: number; sync?: ServerState };

/**
 * What the server last said about a synced post (connected mode only): its change number, likes
 * and status. The row's own `likes` and `status` are this plus the device's unacknowledged
 * operations (src/db/sync/overlay.ts); a post without it has never been on the server.
 */
export interface ServerState {
  seq: number;
  likes: number;
  status: Post['status'];
}

/** One queued operation of the outbox (connected mode): sent in `seq` order, removed once acknowledged. */
export interface OutboxRow {
  seq?: number;
  op: Op;
  /** The post the operation is about (the temporary id of a create until the server answers). */
  postId: number;
  /** The member whose session must send it. */
  email: string;
  /** Set when the server applied it but the device has not yet pulled up to `ackCursor`. */
  ackCursor?: number;
  /** The status a review replaced, for a rollback when the server refuses it. */
  previousStatus?: Post['status'];
  /** How many times in a row the server said it failed on it (`failed`, or a `server_error` alone). */
  failures?: number;
  /** When the first of those failures happened (ms since the epoch). */
  firstFailedAt?: number;
  /** Set once the server kept failing on it (outbox.ts, shouldSetAside): it is not sent again on this page, and blocks nothing. */
  setAside?: true;
}

/** An account created on this browser; `hash` and `salt` never leave IndexedDB. */
export interface AccountRow {
  email: string;
  name: string;
  /** Connected mode only: the role the server gave at the last online sign-in on this device. */
  role?: 'admin' | 'user';
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

/**
 * Version 3 adds the outbox of connected mode: operations in the order they were made (`++seq`),
 * found by post (`postId`, for the likes not yet acknowledged) and by member (`email`). Existing
 * posts need no change: a post without `sync` is one the server has not seen.
 */
export const SCHEMA_V3 = {
  outbox: '++seq, postId, email',
} as const;

export class InsightDatabase extends Dexie {
  posts!: EntityTable<PostRow, 'id'>;
  accounts!: EntityTable<AccountRow, 'email'>;
  meta!: EntityTable<MetaRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;

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
    this.version(3).stores(SCHEMA_V3);
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
