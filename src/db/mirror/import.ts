// Bringing what the `posts` copy holds into IndexedDB: the additive import on start, and the
// difference (old value → new value) another tab or an older build wrote, applied once. It never
// schedules a rewrite itself: the caller passes `markStale` (the scheduler's), so no cycle.

import { db } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { META_KEYS, POSTS_KEY } from '../contracts';
import { readLocal } from '../storage/local-store';
import { hashStringInSlices } from '../storage/hash';
import { dedupePosts, mergePosts, type MergeProgress } from '../posts/merge';
import { countChange, nextRev } from '../storage/revisions';
import { recentlyRemovedPosts } from '../storage/removals';
import type { Post } from '../types';
import {
  endsAsOwnCopy,
  isOwnCopy,
  keepCorruptAside,
  NOTHING_IMPORTED,
  parseMirror,
  readList,
  report,
  type LegacyImportResult,
} from './read';
import { queueMirrorOperations } from '../sync/mirror-ops';

export { NOTHING_IMPORTED, type LegacyImportResult };

/**
 * On start: posts under `posts` that IndexedDB lacks are added and known ones merged (higher
 * likes and views, reviewed status; `comments` stays this device's count of visible replies);
 * nothing in IndexedDB is dropped. A post deleted here lately is not added back (the copy may be
 * older than the deletion: the page closed before the mirror was rewritten). Invalid JSON is kept aside.
 */
export async function importLegacyPosts(onProgress?: (progress: MergeProgress) => void): Promise<LegacyImportResult> {
  const raw = readLocal(POSTS_KEY);
  if (typeof raw !== 'string') return NOTHING_IMPORTED;
  // The usual case: the value is the copy this build last wrote, so there is nothing to bring in
  // (and no need to parse 4 MB of JSON on every start).
  if (await isOwnCopy(raw)) return { ...NOTHING_IMPORTED, present: true };
  return importLegacyCopy(raw, onProgress);
}

/** Merges a copy already read and known not to be this build's own (the start's check, import-start.ts, read and hashed it once). */
export async function importLegacyCopy(raw: string, onProgress?: (progress: MergeProgress) => void): Promise<LegacyImportResult> {
  const result: LegacyImportResult = { ...NOTHING_IMPORTED, present: true };
  const parsed = parseMirror(raw);
  if (parsed.kind === 'absent') return result;
  if (parsed.kind === 'corrupt') {
    await keepCorruptAside(raw);
    return { ...result, corrupt: true };
  }
  if (parsed.skipped > 0) report({ kind: 'skipped', count: parsed.skipped, reason: parsed.reason ?? '' });
  const removed = await recentlyRemovedPosts();
  const posts = parsed.posts.filter((post) => !removed.has(post.id));
  onProgress?.({ done: 0, total: posts.length });
  const merged = await mergePosts(posts, { onProgress });
  if (merged.added + merged.updated > 0) emitLocalChange('posts-imported');
  return { ...result, added: merged.added, updated: merged.updated, skipped: parsed.skipped };
}

// No `comments` here: a post's count is its visible replies on this device, never another copy's number.
type Delta = { post: Post; likes: number; views: number; reviewed: boolean };

function changesBetween(before: Post[], after: Post[]): { added: Post[]; deltas: Delta[] } {
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
      views: Math.max(0, post.views - old.views),
      reviewed: old.status === 'pending' && post.status !== 'pending',
    };
    if (delta.likes || delta.views || delta.reviewed) deltas.push(delta);
  }
  return { added, deltas };
}

/**
 * Applies a `posts` value written by another tab or an older build: the difference between the
 * old and the new value reaches IndexedDB once (however many tabs see the event). Values this
 * build wrote itself are recognised by their end (or, older ones, by their hash) and ignored. `markStale` is called when the
 * copy must be rewritten from IndexedDB (it was removed, or holds unreadable data).
 */
export async function applyExternalPostsChange(
  oldValue: string | null,
  newValue: string | null,
  markStale: () => void = () => undefined,
): Promise<void> {
  if (newValue === null) {
    markStale();
    return;
  }
  // This build's own copy (another tab's mirror write, from the same IndexedDB): known by its end,
  // without hashing 4 MB.
  if (endsAsOwnCopy(newValue)) return;
  const newHash = await hashStringInSlices(newValue);
  if ((await readList(META_KEYS.mirrorOwnWrites)).includes(newHash)) return;
  const after = parseMirror(newValue);
  if (after.kind !== 'posts') {
    await keepCorruptAside(newValue);
    markStale();
    return;
  }
  if (after.skipped > 0) report({ kind: 'skipped', count: after.skipped, reason: after.reason ?? '' });
  const before = parseMirror(oldValue);
  const difference = changesBetween(before.kind === 'posts' ? before.posts : [], after.posts);
  const pair = `${oldValue === null ? 'none' : await hashStringInSlices(oldValue)}>${newHash}`;
  // `replies` too: mergePosts (added posts) recounts their comments inside this transaction.
  const changed = await db.transaction('rw', [db.posts, db.replies, db.reads, db.meta, db.outbox], async () => {
    const applied = await readList(META_KEYS.mirrorApplied);
    if (applied.includes(pair)) return false;
    await db.meta.put({ key: META_KEYS.mirrorApplied, value: [...applied, pair].slice(-64) });
    // A stale copy (an older build's, written from what it read before a deletion here) never
    // brings a deleted post back, nor sends likes for it.
    const removed = await recentlyRemovedPosts();
    const added = difference.added.filter((post) => !removed.has(post.id));
    const deltas = difference.deltas.filter((delta) => !removed.has(delta.post.id));
    let rev = await nextRev();
    for (const delta of deltas) {
      await db.posts
        .where('id')
        .equals(delta.post.id)
        .modify((row) => {
          row.likes += delta.likes;
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
    await queueMirrorOperations(
      added,
      deltas
        .filter((delta) => delta.likes > 0 && delta.post.status === 'approved')
        .map((delta) => ({ postId: delta.post.id, count: delta.likes })),
    );
    if (deltas.length > 0) await countChange();
    return added.length + deltas.length > 0;
  });
  if (changed) emitLocalChange('posts-imported');
}
