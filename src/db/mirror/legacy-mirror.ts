// The `posts` key in localStorage mirrors IndexedDB for an older build that kept everything there.
// IndexedDB is the one source of truth: the mirror is only ever written FROM it (coalesced, at most
// about once a second, never during an interaction); what an older build or another tab writes into
// it is read as a difference (old value → new value) and applied to IndexedDB, so it cannot undo a
// concurrent like. Measured: a read-modify-write of a localStorage array from 4 tabs loses 25-75%
// of likes, even under navigator.locks; a Dexie readwrite transaction loses none.

import { db, type PostRow } from '../core/schema';
import { emitLocalChange, onLocalChange } from '../core/changes';
import { CORRUPT_POSTS_PREFIX, META_KEYS, POSTS_KEY } from '../contracts';
import { isQuotaError, readLocal, writeLocal } from '../core/local-store';
import { hashString, hashStringInSlices } from '../core/hash';
import { whenIdle } from '../core/idle';
import { pagesByKey } from '../core/paging';
import { dedupePosts, mergePosts, type MergeProgress } from '../posts/merge';
import { parsePost, toPost } from '../posts/post-codec';
import { countChange, nextRev, readChangeCount } from '../core/revisions';
import type { Post } from '../types';
import { queueMirrorOperations } from '../sync/mirror-ops';

/** The most characters of JSON the mirror may hold; past it, it keeps the newest posts that fit. */
export const MIRROR_BUDGET_CHARS = 4_000_000;
const MIN_WRITE_INTERVAL_MS = 1_000;
// A burst of clicks (likes) postpones the copy until the person pauses: writing 4 MB to
// localStorage is one long task, and it must never land between two taps.
const INTERACTION_QUIET_MS = 1_500;
const STARTUP_WRITE_DELAY_MS = 5_000;
const LOCK_NAME = 'insight-exchange:posts-mirror';
const OWN_WRITES_KEY = META_KEYS.mirrorOwnWrites;
const APPLIED_KEY = META_KEYS.mirrorApplied;
export const MIRROR_STATS_KEY = META_KEYS.mirrorStats;

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

export type MirrorReport =
  | { kind: 'corrupt'; key: string; storedIn: 'localStorage' | 'indexedDB' }
  | { kind: 'skipped'; count: number; reason: string };

type ReportListener = (report: MirrorReport) => void;
const reportListeners = new Set<ReportListener>();

/** Subscribes to what the mirror found and could not use (corrupt JSON, unreadable posts). */
export function onMirrorReport(listener: ReportListener): () => void {
  reportListeners.add(listener);
  return () => reportListeners.delete(listener);
}

function report(value: MirrorReport): void {
  for (const listener of reportListeners) listener(value);
}

type ParsedMirror =
  | { kind: 'absent' }
  | { kind: 'corrupt' }
  | { kind: 'posts'; posts: Post[]; skipped: number; reason?: string };

/** Reads a raw `posts` value: absent, corrupt (not a JSON array) or the posts it holds. */
export function parseMirror(raw: string | null | undefined): ParsedMirror {
  if (raw === null || raw === undefined) return { kind: 'absent' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: 'corrupt' };
  }
  if (!Array.isArray(value)) return { kind: 'corrupt' };
  const posts: Post[] = [];
  let skipped = 0;
  let reason: string | undefined;
  for (const item of value) {
    const parsed = parsePost(item);
    if (parsed.ok) posts.push(parsed.post);
    else {
      skipped += 1;
      reason ??= `An entry ${parsed.reason}.`;
    }
  }
  return { kind: 'posts', posts, skipped, reason };
}

const keptAside = new Set<string>();

/**
 * Keeps an unreadable value under `posts.corrupt-<timestamp>` (in IndexedDB's meta table if
 * localStorage is full) and reports it. Returns false when it could be kept nowhere.
 */
async function keepCorruptAside(raw: string): Promise<boolean> {
  const digest = hashString(raw);
  if (keptAside.has(digest)) return true;
  const key = `${CORRUPT_POSTS_PREFIX}${Date.now()}`;
  if (writeLocal(key, raw).ok) {
    report({ kind: 'corrupt', key, storedIn: 'localStorage' });
  } else {
    try {
      await db.meta.put({ key, value: raw });
    } catch {
      return false;
    }
    report({ kind: 'corrupt', key, storedIn: 'indexedDB' });
  }
  keptAside.add(digest);
  return true;
}

export interface LegacyImportResult {
  /** True when the `posts` key existed (valid or not). */
  present: boolean;
  corrupt: boolean;
  added: number;
  updated: number;
  skipped: number;
}

/**
 * On start: posts under `posts` that IndexedDB lacks are added and known ones merged (higher
 * counters, reviewed status); nothing in IndexedDB is dropped. Invalid JSON is kept aside.
 */
export async function importLegacyPosts(onProgress?: (progress: MergeProgress) => void): Promise<LegacyImportResult> {
  const raw = readLocal(POSTS_KEY);
  const result: LegacyImportResult = { present: typeof raw === 'string', corrupt: false, added: 0, updated: 0, skipped: 0 };
  if (typeof raw !== 'string') return result;
  // The usual case: the value is the copy this build last wrote, so there is nothing to bring in
  // (and no need to parse 4 MB of JSON on every start).
  if ((await readList(OWN_WRITES_KEY)).includes(await hashStringInSlices(raw))) return result;
  const parsed = parseMirror(raw);
  if (parsed.kind === 'absent') return result;
  if (parsed.kind === 'corrupt') {
    await keepCorruptAside(raw as string);
    return { ...result, corrupt: true };
  }
  if (parsed.skipped > 0) report({ kind: 'skipped', count: parsed.skipped, reason: parsed.reason ?? '' });
  onProgress?.({ done: 0, total: parsed.posts.length });
  const merged = await mergePosts(parsed.posts, { onProgress });
  if (merged.added + merged.updated > 0) emitLocalChange('posts-imported');
  return { ...result, added: merged.added, updated: merged.updated, skipped: parsed.skipped };
}

async function readList(key: string): Promise<string[]> {
  const row = await db.meta.get(key);
  return Array.isArray(row?.value) ? (row.value as string[]) : [];
}

type Delta = { post: Post; likes: number; comments: number; views: number; reviewed: boolean };

function difference(before: Post[], after: Post[]): { added: Post[]; deltas: Delta[] } {
  const previous = new Map(before.map((post) => [post.id, post]));
  const added: Post[] = [];
  const deltas: Delta[] = [];
  for (const post of dedupePosts(after)) {
    const old = previous.get(post.id);
    if (!old) {
      added.push(post);
      continue;
    }
    // Counters only grow: a lower value is a stale copy, never an "unlike".
    const delta: Delta = {
      post,
      likes: Math.max(0, post.likes - old.likes),
      comments: Math.max(0, post.comments - old.comments),
      views: Math.max(0, post.views - old.views),
      reviewed: old.status === 'pending' && post.status !== 'pending',
    };
    if (delta.likes || delta.comments || delta.views || delta.reviewed) deltas.push(delta);
  }
  return { added, deltas };
}

/**
 * Applies a `posts` value written by another tab or an older build: the difference between the
 * old and the new value reaches IndexedDB once (however many tabs see the event). Values this
 * build wrote itself are recognised by their hash and ignored.
 */
export async function applyExternalPostsChange(oldValue: string | null, newValue: string | null): Promise<void> {
  if (newValue === null) {
    scheduleMirrorWrite();
    return;
  }
  const newHash = await hashStringInSlices(newValue);
  if ((await readList(OWN_WRITES_KEY)).includes(newHash)) return;
  const after = parseMirror(newValue);
  if (after.kind !== 'posts') {
    await keepCorruptAside(newValue);
    scheduleMirrorWrite();
    return;
  }
  if (after.skipped > 0) report({ kind: 'skipped', count: after.skipped, reason: after.reason ?? '' });
  const before = parseMirror(oldValue);
  const { added, deltas } = difference(before.kind === 'posts' ? before.posts : [], after.posts);
  const pair = `${oldValue === null ? 'none' : await hashStringInSlices(oldValue)}>${newHash}`;
  const changed = await db.transaction('rw', db.posts, db.meta, db.outbox, async () => {
    const applied = await readList(APPLIED_KEY);
    if (applied.includes(pair)) return false;
    await db.meta.put({ key: APPLIED_KEY, value: [...applied, pair].slice(-64) });
    let rev = await nextRev();
    for (const delta of deltas) {
      await db.posts.where('id').equals(delta.post.id).modify((row) => {
        row.likes += delta.likes;
        row.comments += delta.comments;
        row.views += delta.views;
        if (delta.reviewed && row.status === 'pending') {
          row.status = delta.post.status;
          row.rev = rev++;
        }
      });
    }
    // Posts the older build added (or ones this mirror had dropped for space) merge additively.
    if (added.length > 0) await mergePosts(added);
    // Connected: the older build's new posts and likes become operations for the server.
    await queueMirrorOperations(added, deltas.filter((delta) => delta.likes > 0 && delta.post.status === 'approved').map((delta) => ({ postId: delta.post.id, count: delta.likes })));
    if (deltas.length > 0) await countChange();
    return added.length + deltas.length > 0;
  });
  if (changed) emitLocalChange('posts-imported');
}

const SNAPSHOT_CHUNK = 250;

/**
 * The newest posts that fit the budget, as JSON parts. A post that does not fit the room left is
 * skipped (and counted), never the end of the copy: one huge post must not leave it empty. The
 * scan stops once a whole chunk in a row did not fit. Read 250 rows per short transaction, so
 * a like or a post never waits long behind the mirror; a write that lands between two reads
 * bumps the change counter read first, so the copy is simply written again afterwards.
 */
async function buildSnapshot(budget: number): Promise<{ parts: string[]; total: number; changes: number; skipped: number }> {
  const [total, changes] = await db.transaction('r', db.posts, db.meta, async () => [await db.posts.count(), await readChangeCount()] as const);
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
    let json = `[${parts.join(',')}]`;
    if (json !== current) {
      // Before replacing a value this build did not write, make sure it is not unreadable data
      // that must be kept aside (parsing 4 MB only when the value is not our own copy).
      const own = await readList(OWN_WRITES_KEY);
      const foreign = current !== null && !own.includes(await hashStringInSlices(current));
      if (foreign && parseMirror(current).kind === 'corrupt' && !(await keepCorruptAside(current))) return null;
      for (;;) {
        const digest = await hashStringInSlices(json);
        const latest = await readList(OWN_WRITES_KEY);
        await db.meta.put({ key: OWN_WRITES_KEY, value: [...latest, digest].slice(-32) });
        const written = writeLocal(POSTS_KEY, json);
        if (written.ok) break;
        if (!isQuotaError(written.error) || count === 0) return null;
        // Other keys took part of the quota: keep fewer of the newest posts and try again.
        count = Math.floor(count * 0.75);
        json = `[${parts.slice(0, count).join(',')}]`;
      }
    }
    const stats: MirrorStats = { count, total, chars: json.length, writtenAt: Date.now(), changes, skipped };
    await db.meta.put({ key: MIRROR_STATS_KEY, value: stats });
    return stats;
  });
}

// Coalescing: writes wait at least a second after the previous one, for the browser to be idle,
// and for a quiet moment with no pointer or key input.
let dirty = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let writing: Promise<unknown> | undefined;
let lastWriteAt = 0;
let lastInteractionAt = 0;

function arm(delay: number): void {
  if (timer !== undefined || writing) return;
  timer = setTimeout(() => {
    timer = undefined;
    whenIdle(runScheduledWrite);
  }, delay);
}

function runScheduledWrite(): void {
  const quietFor = Date.now() - lastInteractionAt;
  if (quietFor < INTERACTION_QUIET_MS) {
    arm(INTERACTION_QUIET_MS - quietFor);
    return;
  }
  dirty = false;
  writing = writeMirrorNow()
    .catch(() => null)
    .finally(() => {
      writing = undefined;
      lastWriteAt = Date.now();
      if (dirty) arm(MIN_WRITE_INTERVAL_MS);
    });
}

/** Marks the mirror stale; it is rewritten from IndexedDB soon (after `delay` ms at least), off the click path. */
export function scheduleMirrorWrite(delay = 0): void {
  dirty = true;
  arm(Math.max(delay, lastWriteAt + MIN_WRITE_INTERVAL_MS - Date.now()));
}

/** Writes any pending change now (used when the page is hidden, and by tests). */
export async function flushMirror(): Promise<void> {
  if (timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
  }
  await writing;
  dirty = false;
  await writeMirrorNow().catch(() => null);
  lastWriteAt = Date.now();
}

/**
 * True when `posts` already holds what IndexedDB holds: no write since the last mirror write
 * (the write counter matches) and the stored value is the one written then. Costs two small
 * reads, so a start with nothing to do does no work.
 */
export async function mirrorIsCurrent(): Promise<boolean> {
  const [stats, changes] = await db.transaction('r', db.meta, async () => [await readMirrorStats(), await readChangeCount()] as const);
  if (!stats || stats.changes !== changes) return false;
  const current = readLocal(POSTS_KEY);
  return typeof current === 'string' && current.length === stats.chars;
}

/**
 * Starts the mirror for this page: imports `posts` on start, rewrites it after every local
 * change, and applies the changes other tabs or an older build write into it, in order.
 */
export function startLegacyMirror(): () => void {
  const stopChanges = onLocalChange(() => scheduleMirrorWrite());
  let queue: Promise<void> = Promise.resolve();
  const onStorage = (event: StorageEvent) => {
    if (event.key === POSTS_KEY) {
      queue = queue.then(() => applyExternalPostsChange(event.oldValue, event.newValue)).catch(() => undefined);
    } else if (event.key === null) {
      scheduleMirrorWrite();
    }
  };
  const onInteraction = () => {
    lastInteractionAt = Date.now();
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && dirty) void flushMirror();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener('pointerdown', onInteraction, { capture: true, passive: true });
  window.addEventListener('keydown', onInteraction, { capture: true, passive: true });
  document.addEventListener('visibilitychange', onHidden);
  // A copy left stale by a page that closed too soon is rewritten once the page has settled:
  // setting 4 MB is one long task, which must not land while the page is still loading.
  void mirrorIsCurrent()
    .catch(() => false)
    .then((current) => {
      if (!current) scheduleMirrorWrite(STARTUP_WRITE_DELAY_MS);
    });
  return () => {
    stopChanges();
    window.removeEventListener('storage', onStorage);
    window.removeEventListener('pointerdown', onInteraction, { capture: true });
    window.removeEventListener('keydown', onInteraction, { capture: true });
    document.removeEventListener('visibilitychange', onHidden);
  };
}

/** What the compatibility copy holds, as of its last write (null before the first one). */
export async function readMirrorStats(): Promise<MirrorStats | null> {
  const row = await db.meta.get(MIRROR_STATS_KEY);
  return (row?.value as MirrorStats | undefined) ?? null;
}
