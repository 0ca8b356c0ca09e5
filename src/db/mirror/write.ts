// Writing the `posts` compatibility copy FROM IndexedDB (the one source of truth): a snapshot of
// the newest posts that fit the budget, recorded by hash so the import side knows its own copies,
// and the stats the storage panel shows. No scheduling here (scheduler.ts decides when).

import { db, type PostRow } from '../storage/schema';
import { META_KEYS, POSTS_KEY } from '../contracts';
import { isQuotaError, readLocal, writeLocal } from '../storage/local-store';
import { hashStringInSlices } from '../storage/hash';
import { pagesByKey } from '../storage/paging';
import { toPost } from '../posts/post-codec';
import { readChangeCount } from '../storage/revisions';
import { endsAsOwnCopy, isOwnCopy, keepCorruptAside, OWN_COPY_END, parseMirror, readList } from './read';

/** The most characters of JSON the mirror may hold; past it, it keeps the newest posts that fit. */
export const MIRROR_BUDGET_CHARS = 4_000_000;
export const MIRROR_STATS_KEY = META_KEYS.mirrorStats;
const LOCK_NAME = 'insight-exchange:posts-mirror';
const SNAPSHOT_CHUNK = 250;

export interface MirrorStats {
  /** Posts the compatibility copy holds. */
  count: number;
  /** Posts IndexedDB holds. */
  total: number;
  chars: number;
  writtenAt: number;
  /** The write counter (revisions.ts) the copy reflects. */
  changes: number;
  /** Posts passed over because they did not fit the room left (a single huge post, say). */
  skipped?: number;
}

/**
 * The newest posts that fit the budget, as JSON parts. A post that does not fit the room left is
 * skipped (and counted), never the end of the copy: one huge post must not leave it empty. The
 * scan stops once a whole chunk in a row did not fit. Read 250 rows per short transaction, so
 * a like or a post never waits long behind the mirror; a write that lands between two reads
 * bumps the change counter read first, so the copy is simply written again afterwards.
 */
async function buildSnapshot(budget: number): Promise<{ parts: string[]; total: number; changes: number; skipped: number }> {
  const [total, changes] = await db.transaction(
    'r',
    db.posts,
    db.meta,
    async () => [await db.posts.count(), await readChangeCount()] as const,
  );
  const parts: string[] = [];
  let size = 2;
  let skipped = 0;
  let missesInARow = 0;
  const newestFirst = pagesByKey<PostRow, number>(
    (below) => (below === undefined ? db.posts.orderBy('id') : db.posts.where('id').below(below)).reverse().limit(SNAPSHOT_CHUNK).toArray(),
    (row) => row.id,
  );
  for await (const chunk of newestFirst) {
    if (missesInARow >= SNAPSHOT_CHUNK) break;
    for (const row of chunk) {
      const part = JSON.stringify(toPost(row));
      if (size + part.length + 1 > budget) {
        skipped += 1;
        missesInARow += 1;
        continue;
      }
      missesInARow = 0;
      parts.push(part);
      size += part.length + 1;
    }
  }
  // Posts beyond the scan's end were not skipped for size, only left out as older.
  return { parts, total, changes, skipped: skipped - missesInARow };
}

async function withLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request(LOCK_NAME, work) : work();
}

/**
 * Writes `posts` from IndexedDB now: the newest posts that fit the budget, every status. An
 * unreadable value found there is kept aside first; a full quota shrinks the copy, never throws.
 */
export async function writeMirrorNow(budget = MIRROR_BUDGET_CHARS): Promise<MirrorStats | null> {
  return withLock(async () => {
    const { parts, total, changes, skipped } = await buildSnapshot(budget);
    const current = readLocal(POSTS_KEY);
    if (current === undefined) return null;
    let count = parts.length;
    // Ended with OWN_COPY_END, so a later start knows the copy for this build's own without reading it through.
    let json = `[${parts.join(',')}]${OWN_COPY_END}`;
    if (json !== current) {
      // Before replacing a value this build did not write, make sure it is not unreadable data
      // that must be kept aside (parsing 4 MB only when the value is not our own copy).
      const foreign = current !== null && !(await isOwnCopy(current));
      if (foreign && parseMirror(current).kind === 'corrupt' && !(await keepCorruptAside(current))) return null;
      for (;;) {
        // The digest too: a tab still running the previous version of this build knows copies only by it.
        const digest = await hashStringInSlices(json);
        const latest = await readList(META_KEYS.mirrorOwnWrites);
        await db.meta.put({ key: META_KEYS.mirrorOwnWrites, value: [...latest, digest].slice(-32) });
        const written = writeLocal(POSTS_KEY, json);
        if (written.ok) break;
        if (!isQuotaError(written.error) || count === 0) return null;
        // Other keys took part of the quota: keep fewer of the newest posts and try again.
        count = Math.floor(count * 0.75);
        json = `[${parts.slice(0, count).join(',')}]${OWN_COPY_END}`;
      }
    }
    const stats: MirrorStats = { count, total, chars: json.length, writtenAt: Date.now(), changes, skipped };
    await db.meta.put({ key: MIRROR_STATS_KEY, value: stats });
    return stats;
  });
}

/**
 * True when `posts` already holds what IndexedDB holds: no write since the last mirror write
 * (the write counter matches) and the stored value is the one written then (its length, and
 * the end this build's copies have). Costs two small reads, so a start with nothing to do does no work.
 */
export async function mirrorIsCurrent(): Promise<boolean> {
  const [stats, changes] = await db.transaction('r', db.meta, async () => [await readMirrorStats(), await readChangeCount()] as const);
  if (!stats || stats.changes !== changes) return false;
  const current = readLocal(POSTS_KEY);
  // A copy without the end this build writes now (one written before it did) is rewritten once.
  return typeof current === 'string' && current.length === stats.chars && endsAsOwnCopy(current);
}

/** What the compatibility copy holds, as of its last write (null before the first one). */
export async function readMirrorStats(): Promise<MirrorStats | null> {
  const row = await db.meta.get(MIRROR_STATS_KEY);
  return (row?.value as MirrorStats | undefined) ?? null;
}
