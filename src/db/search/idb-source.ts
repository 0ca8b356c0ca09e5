// The search engine's reads of the `posts` table with the plain IndexedDB API (no Dexie), so the
// search worker stays small. It opens the database as it is (never creates or upgrades it) and
// closes its connection at once when another version wants the database.

import { DATABASE_NAME, META_KEYS } from '../contracts';
import { readRemovedPosts, type RemovedPosts } from '../storage/removed-list';
import type { IndexablePost, IndexableReply } from './search-index';

export interface SourcePost extends IndexablePost {
  rev?: number;
}

export interface SourceReply extends IndexableReply {
  rev?: number;
}

/** What the search engine reads; the plain-IndexedDB source below, or a stub in tests. */
export interface PostSource {
  /** The highest change number stored (0 when none). */
  lastRev(): Promise<number>;
  /** Up to `limit` approved posts with ids above `after` (all when undefined), by id. */
  approvedAfter(after: number | undefined, limit: number): Promise<SourcePost[]>;
  /** Every post whose change number is above `rev`. */
  changedSince(rev: number): Promise<SourcePost[]>;
  /** The posts removed lately (deleted, moved to another id), numbered (storage/removals.ts). */
  removals?(): Promise<RemovedPosts>;
  /** The names of the categories this device holds, by id (a category the admins made is kept by its id), when the source has them. */
  categoryNames?(): Promise<ReadonlyMap<string, string>>;
  /** How many approved posts are stored (engine.catchUp's check), when the source can count them. */
  approvedCount?(): Promise<number>;
  /** The replies (every state), when the source has them: the highest change number, a page by id, what changed, how many, every id. */
  replies?: ReplySource;
  close(): void;
}

export interface ReplySource {
  lastRev(): Promise<number>;
  /** Up to `limit` replies with ids above `after` (all when undefined), by id. */
  after(after: string | undefined, limit: number): Promise<SourceReply[]>;
  changedSince(rev: number): Promise<SourceReply[]>;
  count(): Promise<number>;
  ids(): Promise<string[]>;
}

const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed.'));
  });

function openExisting(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    // No database yet: do not create an empty one (the page's Dexie owns the schema).
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('The posts database is not there yet.'));
    request.onblocked = () => reject(new Error('The posts database is being upgraded.'));
  });
}

/** A PostSource over the app's database, read with plain IndexedDB; reopens after a version change. */
export function idbPostSource(name: string = DATABASE_NAME): PostSource {
  let connection: Promise<IDBDatabase> | undefined;
  const open = () => {
    connection ??= openExisting(name).then(
      (database) => {
        database.onversionchange = () => {
          database.close();
          connection = undefined;
        };
        database.onclose = () => (connection = undefined);
        return database;
      },
      (error: unknown) => {
        connection = undefined;
        throw error;
      },
    );
    return connection;
  };
  const posts = async () => (await open()).transaction('posts', 'readonly').objectStore('posts');
  const replies = async () => (await open()).transaction('replies', 'readonly').objectStore('replies');
  const hasReplies = async () => (await open()).objectStoreNames.contains('replies') && (await replies()).indexNames.contains('rev');
  return {
    async lastRev() {
      const cursor = await done((await posts()).index('rev').openKeyCursor(null, 'prev'));
      return typeof cursor?.key === 'number' ? cursor.key : 0;
    },
    async approvedAfter(after, limit) {
      const range = IDBKeyRange.bound(['approved', after ?? -Infinity], ['approved', Infinity], after !== undefined, false);
      return done((await posts()).index('[status+id]').getAll(range, limit)) as Promise<SourcePost[]>;
    },
    async changedSince(rev) {
      return done((await posts()).index('rev').getAll(IDBKeyRange.lowerBound(rev, true))) as Promise<SourcePost[]>;
    },
    async approvedCount() {
      return done((await posts()).index('[status+id]').count(IDBKeyRange.bound(['approved', -Infinity], ['approved', Infinity])));
    },
    replies: {
      async lastRev() {
        if (!(await hasReplies())) return 0;
        const cursor = await done((await replies()).index('rev').openKeyCursor(null, 'prev'));
        return typeof cursor?.key === 'number' ? cursor.key : 0;
      },
      async after(after, limit) {
        if (!(await hasReplies())) return [];
        const range = after === undefined ? null : IDBKeyRange.lowerBound(after, true);
        return done((await replies()).getAll(range, limit)) as Promise<SourceReply[]>;
      },
      async changedSince(rev) {
        if (!(await hasReplies())) return [];
        return done((await replies()).index('rev').getAll(IDBKeyRange.lowerBound(rev, true))) as Promise<SourceReply[]>;
      },
      async count() {
        return (await hasReplies()) ? done((await replies()).count()) : 0;
      },
      async ids() {
        return (await hasReplies()) ? ((await done((await replies()).getAllKeys())) as string[]) : [];
      },
    },
    async categoryNames() {
      const database = await open();
      if (!database.objectStoreNames.contains('categories')) return new Map();
      const rows = (await done(database.transaction('categories', 'readonly').objectStore('categories').getAll())) as {
        id: string;
        name: string;
      }[];
      return new Map(rows.map((row) => [row.id, row.name]));
    },
    async removals() {
      const meta = (await open()).transaction('meta', 'readonly').objectStore('meta');
      const row = (await done(meta.get(META_KEYS.removedPosts))) as { value?: unknown } | undefined;
      return readRemovedPosts(row?.value);
    },
    close() {
      void connection?.then((database) => database.close()).catch(() => undefined);
      connection = undefined;
    },
  };
}
