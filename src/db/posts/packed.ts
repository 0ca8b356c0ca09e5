// The forum's long tail on a local-only device (issue 44, item 5): an import of a large backup keeps
// the newest approved posts as rows and packs the older ones, 500 to a `postBlocks` record with
// their replies. IndexedDB's cost is per record (bench/idb-floor.mjs: 100,000 rows 28–30 s on the
// machine of 2026-11-30, the same posts as 5,000 rows and 190 blocks 1.6–2.0 s), so an import of
// 100,000 posts writes about 5,200 records instead of 100,000.
//
// A packed post is nowhere else: no reader of rows sees it. It is unpacked (written as a row with
// its replies, by the merge an import uses, and taken out of its block in the same transaction)
// when the member goes there: the next older page of the forum or of a category, a link to it, or
// a search that finds it. So every write, like, edit or moderation still meets rows only. What is
// packed is always approved, never a local account's own post, and never a post already held as a
// row; blocks never overlap, so a post's block is found from its id alone.

import Dexie from 'dexie';
import { db, type PostBlockRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { normalizeEmail } from '../../shared/post-rules';
import { matchesFilters, matchesText, type ParsedQuery } from '../../shared/search-language';
import { searchableText } from '../../shared/search-text';
import { groupBy } from '../../shared/group-by';
import { META_KEYS } from '../contracts';
import { mergePosts, replyChanges, type ReplyMergeCounts } from './merge';
import { mergeChanges } from './post-codec';
import { readPackedCounts, type PackedCounts } from './packed-counts';
import type { CategoryFilter, Post, Reply } from '../types';

/** Posts a block holds. */
export const BLOCK_POSTS = 500;
/** The newest approved posts of an import that stay rows (what a member scrolls through first), as a connected device's budget. */
export const ROWS_KEPT = 5_000;
/** Blocks one transaction writes (4,000 posts, an import's chunk). */
const BLOCKS_PER_WRITE = 8;
/** The most results a search of the packed posts unpacks (the server search's limit). */
export const PACKED_SEARCH_LIMIT = 100;

/** Adds `sign` per post to the counts (inside a readwrite transaction on meta) and returns them; the key goes when nothing is packed. */
async function countPacked(posts: readonly Post[], sign: 1 | -1): Promise<PackedCounts> {
  const counts: PackedCounts = { ...(await readPackedCounts()) };
  if (posts.length === 0) return counts;
  for (const post of posts) {
    counts.All = (counts.All ?? 0) + sign;
    counts[post.category] = (counts[post.category] ?? 0) + sign;
  }
  for (const [key, value] of Object.entries(counts)) if (value <= 0) delete counts[key];
  if ((counts.All ?? 0) > 0) await db.meta.put({ key: META_KEYS.packedCounts, value: counts });
  else await db.meta.delete(META_KEYS.packedCounts);
  return counts;
}

/**
 * Which posts of an import (unique, sorted by id) to pack: the approved ones below the import's
 * newest ROWS_KEPT and below every approved post the device holds already, as a row or packed (so
 * the list's rows stay the newest, and blocks never overlap); never a local account's own or `me`'s
 * (the signed-in member), nor one held as a row. Nothing when fewer than a block would be packed.
 */
export async function choosePacked(posts: readonly Post[], me?: string): Promise<Set<number>> {
  const approved = posts.filter((post) => post.status === 'approved');
  if (approved.length <= ROWS_KEPT + BLOCK_POSTS) return new Set();
  const [rows, accounts, lowestRow, lowestBlock] = await Promise.all([
    db.posts.toCollection().primaryKeys(),
    db.accounts.toCollection().primaryKeys(),
    db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).first(),
    db.postBlocks.orderBy('lo').first(),
  ]);
  const below = Math.min(lowestRow?.id ?? Infinity, lowestBlock?.lo ?? Infinity);
  const held = new Set(rows);
  const own = new Set([...accounts, ...(me ? [me] : [])].map((email) => normalizeEmail(email)));
  const packed = new Set<number>();
  for (const post of approved.slice(0, approved.length - ROWS_KEPT)) {
    if (post.id >= below) break;
    if (held.has(post.id) || own.has(normalizeEmail(post.authorEmail))) continue;
    packed.add(post.id);
  }
  return packed.size >= BLOCK_POSTS ? packed : new Set();
}

/** The blocks' ranges, oldest first (they never overlap, so the ordered los and his pair up). */
async function blockRanges(): Promise<{ lo: number; hi: number }[]> {
  const [los, his] = await Promise.all([db.postBlocks.orderBy('lo').primaryKeys(), db.postBlocks.orderBy('hi').keys()]);
  return los.map((lo, at) => ({ lo, hi: his[at] as number }));
}

/** The key of the block whose range holds `id`, if any (ranges oldest first). */
function blockOf(ranges: readonly { lo: number; hi: number }[], id: number): number | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle]!;
    if (id < range.lo) high = middle - 1;
    else if (id > range.hi) low = middle + 1;
    else return range.lo;
  }
  return undefined;
}

/** Which of these ids are packed here. */
export async function packedAmong(ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  const ranges = await blockRanges();
  if (ranges.length === 0 || ids.length === 0) return found;
  const byBlock = groupBy(ids, (id) => blockOf(ranges, id));
  for (const [key, wanted] of byBlock) {
    if (key === undefined) continue;
    const posts = new Set((await db.postBlocks.get(key))?.posts.map((post) => post.id));
    for (const id of wanted) if (posts.has(id)) found.add(id);
  }
  return found;
}

/**
 * An import meets posts packed here (the same file again, a newer backup, replies on them): a packed
 * post the file changes (higher counts, a reply new or edited since) is unpacked first, so the
 * import's merge takes it as the row it now is; one the file leaves as it is stays packed. Returns
 * the ids (of the file's posts and of its replies' posts) left packed and unchanged: the merge
 * leaves them, and their replies, out.
 */
export async function settlePacked(posts: readonly Post[], replies: readonly Reply[]): Promise<Set<number>> {
  const unchanged = new Set<number>();
  const ranges = await blockRanges();
  if (ranges.length === 0) return unchanged;
  const inFile = new Map(posts.map((post) => [post.id, post]));
  const repliesOf = groupBy(replies, (reply) => reply.postId);
  const byBlock = new Map<number, Set<number>>();
  for (const id of new Set([...inFile.keys(), ...repliesOf.keys()])) {
    const key = blockOf(ranges, id);
    if (key !== undefined) byBlock.set(key, (byBlock.get(key) ?? new Set()).add(id));
  }
  const changed = new Set<number>();
  const keys: number[] = [];
  for (const [key, ids] of byBlock) {
    const block = await db.postBlocks.get(key);
    if (!block) continue;
    const kept = new Map(block.replies.map((reply) => [reply.id, reply]));
    for (const post of block.posts) {
      if (!ids.has(post.id)) continue;
      const incoming = inFile.get(post.id);
      const news =
        (incoming !== undefined && mergeChanges(post, incoming) !== null) ||
        (repliesOf.get(post.id) ?? []).some((reply) => {
          const known = kept.get(reply.id);
          return !known || replyChanges(known, reply) !== null;
        });
      if (news) changed.add(post.id);
      else unchanged.add(post.id);
    }
    if ([...ids].some((id) => changed.has(id))) keys.push(key);
  }
  if (changed.size > 0) await unpack(keys, (post) => changed.has(post.id), changed.size);
  return unchanged;
}

/**
 * Packs posts (sorted by id, none held here) with their replies into new blocks, BLOCKS_PER_WRITE
 * blocks a transaction; a cancel stops between transactions. Returns how many posts it packed.
 */
export async function packPosts(
  posts: readonly Post[],
  replies: readonly Reply[],
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): Promise<{ packed: number; replies: number }> {
  const repliesOf = groupBy(replies, (reply) => reply.postId);
  const blocks: PostBlockRow[] = [];
  for (let start = 0; start < posts.length; start += BLOCK_POSTS) {
    const slice = posts.slice(start, start + BLOCK_POSTS);
    blocks.push({
      lo: slice[0]!.id,
      hi: slice.at(-1)!.id,
      posts: slice.slice().reverse(),
      replies: slice.flatMap((post) => repliesOf.get(post.id) ?? []),
    });
  }
  let packed = 0;
  let packedReplies = 0;
  for (let start = 0; start < blocks.length; start += BLOCKS_PER_WRITE) {
    if (options.signal?.aborted) break;
    const batch = blocks.slice(start, start + BLOCKS_PER_WRITE);
    await db.transaction('rw', [db.postBlocks, db.meta], async () => {
      await db.postBlocks.bulkAdd(batch);
      await countPacked(
        batch.flatMap((block) => block.posts),
        1,
      );
    });
    for (const block of batch) {
      packed += block.posts.length;
      packedReplies += block.replies.length;
    }
    options.onProgress?.(packed);
  }
  if (packed > 0) emitLocalChange('posts-imported');
  return { packed, replies: packedReplies };
}

/** What unpacking found: the posts (newest first) and whether more packed posts of that kind remain. */
export interface Unpacked {
  ids: number[];
  more: boolean;
  replies: ReplyMergeCounts;
}

/**
 * Takes the posts `pick` chooses out of the blocks, read newest block first (`blocks`: their keys),
 * until `limit` are taken, and writes them as rows with their replies, in one transaction.
 */
async function unpack(
  keys: readonly number[],
  pick: (post: Post) => boolean,
  limit: number,
  category: CategoryFilter = 'All',
): Promise<Unpacked> {
  const unpacked = await db.transaction('rw', [db.postBlocks, db.posts, db.replies, db.reads, db.meta], async () => {
    const taken: Post[] = [];
    const takenReplies: Reply[] = [];
    for (const key of keys) {
      if (taken.length >= limit) break;
      const block = await db.postBlocks.get(key);
      if (!block) continue;
      const chosen = new Set<number>();
      for (const post of block.posts) {
        if (taken.length >= limit) break;
        if (!pick(post)) continue;
        chosen.add(post.id);
        taken.push(post);
      }
      if (chosen.size === 0) continue;
      takenReplies.push(...block.replies.filter((reply) => chosen.has(reply.postId)));
      const posts = block.posts.filter((post) => !chosen.has(post.id));
      if (posts.length === 0) await db.postBlocks.delete(key);
      else await db.postBlocks.put({ ...block, posts, replies: block.replies.filter((reply) => !chosen.has(reply.postId)) });
    }
    const counts = await countPacked(taken, -1);
    if (taken.length === 0) return { ids: [], replies: { added: 0, updated: 0, unchanged: 0 }, counts };
    // Written as an import writes them (`comments` counted from the replies, a change number each),
    // but "long ago": the device held them already, so they are not news (what's new, New marks).
    const merged = await mergePosts(taken, { replies: takenReplies, arrivedAt: 0 });
    return { ids: taken.map((post) => post.id), replies: merged.replies, counts };
  });
  if (unpacked.ids.length > 0) emitLocalChange('posts-imported');
  return { ids: unpacked.ids, replies: unpacked.replies, more: (unpacked.counts[category] ?? 0) > 0 };
}

/** Every block's key, newest block first. */
const newestFirst = () => db.postBlocks.orderBy('lo').reverse().primaryKeys();

/** Unpacks the newest `limit` packed posts of `category` ("All": of the forum): the next older page of its list. */
export async function unpackOlder(category: CategoryFilter, limit: number): Promise<Unpacked> {
  return unpack(await newestFirst(), (post) => category === 'All' || post.category === category, limit, category);
}

/** Unpacks one post (a link to it); false when it is not packed. */
export async function unpackPost(id: number): Promise<boolean> {
  const keys = (await db.postBlocks.where('hi').aboveOrEqual(id).primaryKeys()).filter((lo) => lo <= id);
  if (keys.length === 0) return false;
  return (await unpack(keys, (post) => post.id === id, 1)).ids.length > 0;
}

/** What a search of the packed posts found: ids newest first (the first PACKED_SEARCH_LIMIT unpacked), and replies that matched. */
export interface PackedSearch {
  ids: number[];
  total: number;
  more: boolean;
  /** For a post found through a reply: that reply's id. */
  replies: Record<number, string>;
}

/**
 * Searches the packed posts as the search worker searches rows (the same text and filters; a
 * visible reply's text finds its post) and unpacks the newest PACKED_SEARCH_LIMIT found, so they
 * show, and stay, like any other post.
 */
export async function searchPacked(parsed: ParsedQuery, category: CategoryFilter, me: string | null): Promise<PackedSearch> {
  const found: { id: number; block: number; reply?: string }[] = [];
  // `category:` looks for a category's name (one the admins made is kept by its id).
  const names = new Map(parsed.categories.length > 0 ? (await db.categories.toArray()).map((row) => [row.id, row.name]) : []);
  const categoryName = (id: string) => names.get(id) ?? id;
  await db.postBlocks
    .orderBy('lo')
    .reverse()
    .each((block) => {
      const replyText = groupBy(
        block.replies.filter((reply) => reply.state === 'visible'),
        (reply) => reply.postId,
      );
      for (const post of block.posts) {
        if (category !== 'All' && post.category !== category) continue;
        if (parsed.chips.length > 0 && !matchesFilters(post, parsed, me, categoryName)) continue;
        if (matchesText(searchableText(post), parsed)) {
          found.push({ id: post.id, block: block.lo });
          continue;
        }
        if (!parsed.text && parsed.phrases.length === 0) continue;
        const reply = replyText.get(post.id)?.find((item) => matchesText(searchableText({ title: '', content: item.content }), parsed));
        if (reply) found.push({ id: post.id, block: block.lo, reply: reply.id });
      }
    });
  const shown = found.slice(0, PACKED_SEARCH_LIMIT);
  const wanted = new Set(shown.map((item) => item.id));
  // Only the blocks that hold them are read again (found newest block first).
  if (wanted.size > 0) await unpack([...new Set(shown.map((item) => item.block))], (post) => wanted.has(post.id), wanted.size);
  return {
    ids: shown.map((item) => item.id),
    total: found.length,
    more: found.length > shown.length,
    replies: Object.fromEntries(shown.flatMap((item) => (item.reply ? [[item.id, item.reply]] : []))),
  };
}

/** The packed posts and their replies, block by block, oldest block first (a backup). */
export async function eachPackedBlock(visit: (block: PostBlockRow) => void): Promise<void> {
  await db.postBlocks.orderBy('lo').each(visit);
}
