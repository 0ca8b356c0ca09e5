// Additive merging of posts that come from outside (the legacy mirror on start, a backup file):
// a post whose id is new is added; one that exists is merged (higher counters win, a reviewed
// status wins over pending); nothing is ever deleted. Written in chunks, one transaction each.

import { db, type PostRow } from '../core/schema';
import { mergeChanges } from './post-codec';
import { countChange, nextRev } from '../core/revisions';
import type { Post } from '../types';

export const MERGE_CHUNK_SIZE = 1000;

export interface MergeProgress {
  done: number;
  total: number;
}

export interface MergeOptions {
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MergeProgress) => void;
}

export interface MergeResult {
  added: number;
  updated: number;
  unchanged: number;
  /** How many posts were written before a cancel; always a whole number of chunks. */
  processed: number;
  cancelled: boolean;
}

/** Folds duplicates of one id into one post, by the same rule as a merge with a stored post. */
export function dedupePosts(posts: readonly Post[]): Post[] {
  const byId = new Map<number, Post>();
  for (const post of posts) {
    const seen = byId.get(post.id);
    byId.set(post.id, seen ? { ...seen, ...(mergeChanges(seen, post) ?? {}) } : post);
  }
  return [...byId.values()];
}

/** The stored rows among `chunk` (sorted by id): one key read over the chunk's id range, then rows only for ids that exist. */
async function storedRows(chunk: readonly Post[]): Promise<Map<number, PostRow>> {
  const first = chunk[0].id;
  const last = chunk[chunk.length - 1].id;
  const wanted = new Set(chunk.map((post) => post.id));
  const keys = (await db.posts.where('id').between(first, last, true, true).primaryKeys()).filter((key) => wanted.has(key));
  const rows = keys.length > 0 ? await db.posts.bulkGet(keys) : [];
  return new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : [])));
}

/**
 * Merges posts into IndexedDB, one readwrite transaction per chunk (in id order): each chunk is
 * all-or-nothing. A fresh import reads no rows, only the keys of each chunk's id range.
 */
export async function mergePosts(posts: readonly Post[], options: MergeOptions = {}): Promise<MergeResult> {
  const chunkSize = options.chunkSize ?? MERGE_CHUNK_SIZE;
  const unique = dedupePosts(posts).sort((a, b) => a.id - b.id);
  const result: MergeResult = { added: 0, updated: 0, unchanged: 0, processed: 0, cancelled: false };
  for (let start = 0; start < unique.length; start += chunkSize) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      break;
    }
    const chunk = unique.slice(start, start + chunkSize);
    const counts = await db.transaction('rw', db.posts, db.meta, async () => {
      const stored = await storedRows(chunk);
      const additions: PostRow[] = [];
      const updates: { key: number; changes: Partial<PostRow> }[] = [];
      // New posts and status changes get change numbers, so the search index sees them.
      let rev = await nextRev();
      for (const post of chunk) {
        const existing = stored.get(post.id);
        if (!existing) additions.push({ ...post, rev: rev++ });
        else {
          const changes: Partial<PostRow> | null = mergeChanges(existing, post);
          if (changes?.status) changes.rev = rev++;
          if (changes) updates.push({ key: post.id, changes });
        }
      }
      if (additions.length > 0) await db.posts.bulkAdd(additions);
      if (updates.length > 0) await db.posts.bulkUpdate(updates);
      if (additions.length + updates.length > 0) await countChange();
      return { added: additions.length, updated: updates.length };
    });
    result.added += counts.added;
    result.updated += counts.updated;
    result.unchanged += chunk.length - counts.added - counts.updated;
    result.processed += chunk.length;
    options.onProgress?.({ done: result.processed, total: unique.length });
  }
  return result;
}
