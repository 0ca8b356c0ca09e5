// The unread bench's page (bench/unread.mjs): the device's own code (schema, the unread upkeep,
// db/follows/reads.ts, the pull's storeServerReplies) in Chromium's IndexedDB, driven by the bench
// through `window.unreadBench`. Served by Vite's dev server; never part of the app.
import { liveQuery } from 'dexie';
import { db, type PostRow, type ReadRow, type ReplyRow } from '../../src/db/storage/schema';
import { unreadCounts, unreadCountsOf } from '../../src/db/follows/reads';
import { storeServerReplies } from '../../src/db/replies/pulled';
import { OP_TABLES } from '../../src/db/ops/op-tables';
import type { WireReply } from '../../src/shared/protocol';

const ME = 'reader@example.com';
const T0 = 1_700_000_000_000;

const post = (id: number): PostRow => ({
  id,
  title: `Post ${id}`,
  content: 'Bench.',
  category: 'Quantitative',
  author: 'Writer',
  authorEmail: 'writer@example.com',
  authorRole: 'user',
  likes: 0,
  comments: 10,
  views: 0,
  date: '1 hour ago',
  isTopContributor: false,
  tags: [],
  status: 'approved',
  rev: id,
});
const reply = (postId: number, n: number, at: number): ReplyRow => ({
  id: `${postId}-${n}`,
  postId,
  author: 'Replier',
  authorEmail: n % 7 === 0 ? ME : 'replier@example.com',
  authorRole: 'user',
  content: 'A reply.',
  quoteId: null,
  createdAt: at,
  editedAt: null,
  state: 'visible',
  listed: 1,
});

/** Seeds `posts` posts of `perPost` replies each and a read position in every post (half-way through its thread). */
async function seed(posts: number, perPost: number): Promise<number> {
  const started = performance.now();
  for (let from = 1; from <= posts; from += 1_000) {
    const ids = Array.from({ length: Math.min(1_000, posts - from + 1) }, (_, i) => from + i);
    await db.transaction('rw', [db.posts, db.replies, db.reads, db.meta], async () => {
      await db.posts.bulkAdd(ids.map(post));
      await db.replies.bulkAdd(ids.flatMap((id) => Array.from({ length: perPost }, (_, n) => reply(id, n, T0 + n * 1_000))));
    });
  }
  for (let from = 1; from <= posts; from += 1_000) {
    const rows: ReadRow[] = Array.from({ length: Math.min(1_000, posts - from + 1) }, (_, i) => ({
      email: ME,
      postId: from + i,
      readTo: T0 + (perPost / 2) * 1_000,
      unread: 0,
    }));
    await db.transaction('rw', [db.replies, db.reads], () => db.reads.bulkPut(rows));
  }
  return performance.now() - started;
}

/** One read of every count (what `is:unread` reads): its time and how many posts have new replies. */
async function countsOnce(): Promise<{ ms: number; posts: number }> {
  const started = performance.now();
  const counts = await unreadCounts(ME);
  return { ms: performance.now() - started, posts: counts.size };
}

/** One read of the counts of `shown` posts spread over the device (what useUnreadCounts runs for the cards on screen). */
async function screenOnce(shown: number, posts: number): Promise<number> {
  const ids = Array.from({ length: shown }, () => 1 + Math.floor(Math.random() * posts));
  const started = performance.now();
  await unreadCountsOf(ME, ids);
  return performance.now() - started;
}

/** Moves the read position of every post but the first `unread` ones to the end of its thread: only those keep new replies. */
async function readAllBut(unread: number, posts: number): Promise<void> {
  for (let from = unread + 1; from <= posts; from += 1_000) {
    const rows: ReadRow[] = Array.from({ length: Math.min(1_000, posts - from + 1) }, (_, i) => ({
      email: ME,
      postId: from + i,
      readTo: T0 + 100_000_000,
      unread: 0,
    }));
    await db.transaction('rw', [db.replies, db.reads], () => db.reads.bulkPut(rows));
  }
}

let wave = 0;
/** A pull page of `size` new replies over `posts` posts: stored with the unread upkeep, or in a transaction without `reads` (no upkeep). */
async function pullPage(size: number, posts: number, upkeep: boolean): Promise<number> {
  wave += 1;
  const wires: WireReply[] = Array.from({ length: size }, (_, i) => {
    const postId = 1 + ((wave * 97 + i) % posts);
    return {
      ...reply(postId, 1_000 + wave * size + i, T0 + 10_000_000 + wave * 1_000 + i),
      id: `w${wave}-${i}`,
      authorId: '',
      seq: wave * size + i,
    };
  }).map(({ listed: _listed, ...wire }) => wire as WireReply);
  const tables = upkeep ? OP_TABLES() : OP_TABLES().filter((table) => table !== db.reads);
  const started = performance.now();
  await db.transaction('rw', tables, () => storeServerReplies(wires, 0));
  return performance.now() - started;
}

/** Stores one new reply in `postId` (as a pull would); returns when it committed (epoch ms, high resolution). */
async function storeReply(postId: number): Promise<number> {
  wave += 1;
  // Another member's (a reply of the reader's own would change no count).
  const wire = { ...reply(postId, 1, T0 + 20_000_000 + wave), id: `live-${wave}`, authorId: '', seq: 1 };
  const { listed: _listed, ...fields } = wire;
  await db.transaction('rw', OP_TABLES(), () => storeServerReplies([fields as WireReply], 0));
  return performance.timeOrigin + performance.now();
}

let changed: Promise<number> | undefined;

/**
 * Watches the count of `postId` (a live query, as useUnreadCounts is); resolves once its first read
 * is in. `changedAt()` then resolves with the time (epoch ms) the count first changes.
 */
function watch(postId: number): Promise<void> {
  return new Promise((armed) => {
    let first: number | undefined;
    changed = new Promise((resolve) => {
      const subscription = liveQuery(() => unreadCounts(ME)).subscribe((counts) => {
        const now = counts.get(postId) ?? 0;
        if (first === undefined) {
          first = now;
          armed();
        } else if (now !== first) {
          subscription.unsubscribe();
          resolve(performance.timeOrigin + performance.now());
        }
      });
    });
  });
}

/** When the watched count changed (NaN after 30 s without a change). */
const changedAt = (): Promise<number> =>
  Promise.race([changed!, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 30_000))]);

Object.assign(window, { unreadBench: { seed, countsOnce, screenOnce, readAllBut, pullPage, storeReply, watch, changedAt } });
