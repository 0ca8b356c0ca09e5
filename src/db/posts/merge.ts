// Additive merging of posts that come from outside (the legacy mirror on start, a backup file, with
// a backup's replies): a post whose id is new is added; one that exists is merged (higher likes
// and views win, a reviewed status wins over pending); nothing is ever deleted. A post's `comments`
// never comes from outside: every merged post gets the number of its visible replies on this
// device, counted after the replies of its chunk are written. Written in chunks, one transaction each.

import { db, type PostRow, type ReplyRow } from '../storage/schema';
import { dedupePosts, mergeChanges } from './post-codec';
import { countChange, nextRev } from '../storage/revisions';
import { visibleReplyCounts } from '../replies/reply-counts';
import type { Post, Reply } from '../types';
import { groupBy } from '../../shared/group-by';

/**
 * The most posts (with the replies that go with them) one chunk, one transaction, writes. Measured
 * on an import of 100,000 posts (bench/results.md, issue 24): 1,000 per transaction took 19.7–21.9 s,
 * 4,000 took 13.3–13.5 s (each commit, and the readers that wake after it, cost the same whatever
 * the chunk holds), 10,000 no less (12.5–13.5 s).
 */
export const MERGE_CHUNK_SIZE = 4000;
/**
 * The most rows one write call hands IndexedDB: each row is cloned on the main thread as it is
 * written, so a chunk's rows (posts and replies) go in slices with a pause between them, never
 * one long task.
 */
const WRITE_SLICE = 1000;

/** Hands `rows` to `write` WRITE_SLICE at a time, each slice written before the next is cloned. */
async function inSlices<T>(rows: readonly T[], write: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += WRITE_SLICE) await write(rows.slice(start, start + WRITE_SLICE));
}

export interface MergeProgress {
  done: number;
  total: number;
}

export interface MergeOptions {
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MergeProgress) => void;
  /**
   * Replies to merge as well (a backup's, already checked: each is on a post of `posts` or on this
   * device, and no id comes twice). Each is written in the transaction of its post's chunk; the
   * replies of posts that only the device has follow, in chunks of their own.
   */
  replies?: readonly Reply[];
  /** When the new rows arrived (schema.ts, Arrival): now unless given; 0 for posts the device held already, packed (packed.ts). */
  arrivedAt?: number;
}

/** What a merge did with the replies it was given. */
export interface ReplyMergeCounts {
  added: number;
  updated: number;
  unchanged: number;
}

export interface MergeResult {
  added: number;
  updated: number;
  unchanged: number;
  /** How many posts were written before a cancel; always a whole number of chunks. */
  processed: number;
  cancelled: boolean;
  replies: ReplyMergeCounts;
}

// Deduplicating a list (the same id twice: merged) lives with the posts' codec (the forum's first frame uses it).
export { dedupePosts } from './post-codec';

/** The stored rows among `chunk` (sorted by id): one key read over the chunk's id range, then rows only for ids that exist. */
async function storedRows(chunk: readonly Post[]): Promise<Map<number, PostRow>> {
  const first = chunk[0].id;
  const last = chunk[chunk.length - 1].id;
  const wanted = new Set(chunk.map((post) => post.id));
  const keys = (await db.posts.where('id').between(first, last, true, true).primaryKeys()).filter((key) => wanted.has(key));
  const rows = keys.length > 0 ? await db.posts.bulkGet(keys) : [];
  return new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : [])));
}

/** Splits sorted posts into chunks of at most `size` rows, each post counted with its replies (at least one post a chunk). */
function postChunks(posts: readonly Post[], repliesOf: ReadonlyMap<number, Reply[]>, size: number): Post[][] {
  const chunks: Post[][] = [];
  let chunk: Post[] = [];
  let rows = 0;
  for (const post of posts) {
    const weight = 1 + (repliesOf.get(post.id)?.length ?? 0);
    if (chunk.length > 0 && rows + weight > size) {
      chunks.push(chunk);
      chunk = [];
      rows = 0;
    }
    chunk.push(post);
    rows += weight;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * What a known reply takes from the file: its text and edit time when the file's edit is newer.
 * Its post and its state stay the device's (a moderator's hide or an author's delete here stands).
 */
export function replyChanges(stored: Reply, incoming: Reply): Partial<ReplyRow> | null {
  if (stored.postId !== incoming.postId || stored.state === 'deleted' || incoming.state === 'deleted' || incoming.content === '')
    return null;
  if ((incoming.editedAt ?? -Infinity) <= (stored.editedAt ?? -Infinity)) return null;
  return { content: incoming.content, editedAt: incoming.editedAt };
}

/**
 * Writes replies: new ids are added (`listed` 0 once deleted), known ones merged (replyChanges).
 * A quote is kept only when the quoted reply is on the same post, in the file (`postOfReply`) or
 * on this device, as the reply box keeps it. Call inside a readwrite transaction on replies.
 */
async function mergeReplies(
  replies: readonly Reply[],
  postOfReply: ReadonlyMap<string, number>,
  arrivedAt: number,
): Promise<ReplyMergeCounts> {
  const counts: ReplyMergeCounts = { added: 0, updated: 0, unchanged: 0 };
  if (replies.length === 0) return counts;
  const stored = await db.replies.bulkGet(replies.map((reply) => reply.id));
  const elsewhere = [...new Set(replies.flatMap((reply) => (reply.quoteId && !postOfReply.has(reply.quoteId) ? [reply.quoteId] : [])))];
  const quoted = new Map((await db.replies.bulkGet(elsewhere)).flatMap((row) => (row ? [[row.id, row.postId] as const] : [])));
  const additions: ReplyRow[] = [];
  const updates: { key: string; changes: Partial<ReplyRow> }[] = [];
  replies.forEach((reply, index) => {
    const known = stored[index];
    if (!known) {
      const quotePost = reply.quoteId === null ? undefined : (postOfReply.get(reply.quoteId) ?? quoted.get(reply.quoteId));
      const quoteId = quotePost === reply.postId ? reply.quoteId : null;
      additions.push({ ...reply, quoteId, listed: reply.state !== 'deleted' ? 1 : 0, arrivedAt });
      return;
    }
    const changes = replyChanges(known, reply);
    if (changes) updates.push({ key: reply.id, changes });
    else counts.unchanged += 1;
  });
  await inSlices(additions, (slice) => db.replies.bulkAdd(slice));
  await inSlices(updates, (slice) => db.replies.bulkUpdate(slice));
  counts.added = additions.length;
  counts.updated = updates.length;
  return counts;
}

const addCounts = (total: ReplyMergeCounts, more: ReplyMergeCounts) => {
  total.added += more.added;
  total.updated += more.updated;
  total.unchanged += more.unchanged;
};

/** One chunk of posts with their replies, in one transaction; returns how many posts it added and updated. */
async function mergePostChunk(
  chunk: readonly Post[],
  replies: readonly Reply[],
  postOfReply: ReadonlyMap<string, number>,
  arrivedAt: number,
) {
  return db.transaction('rw', [db.posts, db.replies, db.reads, db.meta], async () => {
    const stored = await storedRows(chunk);
    const replyCounts = await mergeReplies(replies, postOfReply, arrivedAt);
    const comments = await visibleReplyCounts(chunk.map((post) => post.id));
    const additions: PostRow[] = [];
    const updates: { key: number; changes: Partial<PostRow> }[] = [];
    // New posts and status changes get change numbers, so the search index sees them.
    let rev = await nextRev();
    for (const post of chunk) {
      const existing = stored.get(post.id);
      const count = comments.get(post.id) ?? 0;
      if (!existing) additions.push({ ...post, comments: count, rev: rev++, arrivedAt });
      else {
        const changes: Partial<PostRow> = mergeChanges(existing, post) ?? {};
        if (changes.status) changes.rev = rev++;
        if (existing.comments !== count) changes.comments = count;
        if (Object.keys(changes).length > 0) updates.push({ key: post.id, changes });
      }
    }
    await inSlices(additions, (slice) => db.posts.bulkAdd(slice));
    await inSlices(updates, (slice) => db.posts.bulkUpdate(slice));
    if (additions.length + updates.length > 0) await countChange();
    return { added: additions.length, updated: updates.length, replies: replyCounts };
  });
}

/** Replies on posts the device has but the file does not: merged, then those posts recounted. */
async function mergeReplyChunk(
  replies: readonly Reply[],
  postOfReply: ReadonlyMap<string, number>,
  arrivedAt: number,
): Promise<ReplyMergeCounts> {
  return db.transaction('rw', [db.posts, db.replies, db.reads, db.meta], async () => {
    const counts = await mergeReplies(replies, postOfReply, arrivedAt);
    const ids = [...new Set(replies.map((reply) => reply.postId))];
    const comments = await visibleReplyCounts(ids);
    const posts = await db.posts.bulkGet(ids);
    const updates = posts.flatMap((post) =>
      post && post.comments !== comments.get(post.id) ? [{ key: post.id, changes: { comments: comments.get(post.id) ?? 0 } }] : [],
    );
    if (updates.length > 0) {
      await db.posts.bulkUpdate(updates);
      await countChange();
    }
    return counts;
  });
}

/**
 * Merges posts (and replies) into IndexedDB, one readwrite transaction per chunk (in id order):
 * each chunk is all-or-nothing, a post always with its replies. A fresh import reads no post rows,
 * only the keys of each chunk's id range.
 */
export async function mergePosts(posts: readonly Post[], options: MergeOptions = {}): Promise<MergeResult> {
  const chunkSize = options.chunkSize ?? MERGE_CHUNK_SIZE;
  const arrivedAt = options.arrivedAt ?? Date.now();
  const unique = dedupePosts(posts).sort((a, b) => a.id - b.id);
  const replies = options.replies ?? [];
  const postOfReply = new Map(replies.map((reply) => [reply.id, reply.postId]));
  const repliesOf = groupBy(replies, (reply) => reply.postId);
  const result: MergeResult = {
    added: 0,
    updated: 0,
    unchanged: 0,
    processed: 0,
    cancelled: false,
    replies: { added: 0, updated: 0, unchanged: 0 },
  };
  for (const chunk of postChunks(unique, repliesOf, chunkSize)) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      return result;
    }
    const counts = await mergePostChunk(
      chunk,
      chunk.flatMap((post) => repliesOf.get(post.id) ?? []),
      postOfReply,
      arrivedAt,
    );
    result.added += counts.added;
    result.updated += counts.updated;
    result.unchanged += chunk.length - counts.added - counts.updated;
    result.processed += chunk.length;
    addCounts(result.replies, counts.replies);
    options.onProgress?.({ done: result.processed, total: unique.length });
  }
  const inFile = new Set(unique.map((post) => post.id));
  const rest = replies.filter((reply) => !inFile.has(reply.postId)).sort((a, b) => a.postId - b.postId);
  for (let start = 0; start < rest.length; start += chunkSize) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      break;
    }
    addCounts(result.replies, await mergeReplyChunk(rest.slice(start, start + chunkSize), postOfReply, arrivedAt));
  }
  return result;
}
