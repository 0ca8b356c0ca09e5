// A window of the forum (issue 44, connected mode): a new or cleared device holds the newest
// approved posts (WINDOW_POSTS), its member's own and saved posts, what waits for an admin, what
// it opens or scrolls to, and everything that changes after its first sync; the rest stays on the
// server until the member goes there (db/sync/window.ts stores those pages, sync/window.ts asks).
// What it holds stays under a budget: past POSTS_BUDGET approved posts the oldest leave
// (removeOldPosts: never the member's own, saved or queued posts), unless the member asked for the
// whole forum (Download the whole forum, META_KEYS.windowWhole).

import Dexie from 'dexie';
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import { noteRemovedPosts } from '../storage/removals';
import { META_KEYS } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';
import { isConnectedDevice } from '../ops/sync-meta';
import type { HoldsPart } from './apply-pull';

/** How many of the newest approved posts a new device's first sync stores. */
export const WINDOW_POSTS = 2_000;
/** The most approved posts a device keeps (besides its member's own, saved and queued ones) before the oldest leave. */
export const POSTS_BUDGET = 5_000;
/** Past the budget by a twentieth, the oldest leave (down to the budget): not a removal at every pull. */
const slackOf = (budget: number) => Math.floor(budget / 20);
/** The IndexedDB space a device keeps for the forum, shown on Profile (about 2 KB a post with its replies and search words). */
export const STORAGE_BUDGET_BYTES = 25 * 1024 * 1024;

const CHUNK = 2_000;

/** The window as this device holds it: the first sync's head while its pull runs, the floor, whole or not. */
export interface WindowState {
  head?: number;
  /** Every approved post at or above this id is on the device (0: every one). */
  floor: number;
  whole: boolean;
}

export async function readWindow(): Promise<WindowState> {
  return withDataErrors(async () => {
    const [head, floor, whole] = await db.meta.bulkGet([META_KEYS.windowHead, META_KEYS.windowFloor, META_KEYS.windowWhole]);
    return {
      ...(typeof head?.value === 'number' ? { head: head.value } : {}),
      floor: typeof floor?.value === 'number' ? floor.value : 0,
      whole: whole !== undefined,
    };
  });
}

/**
 * Whether this device's first sync takes a window: it holds no post from a server (new, or
 * cleared), or a window's pages were under way (its head is kept); not after Download the whole forum.
 */
export async function takesWindow(): Promise<boolean> {
  return withDataErrors(async () => {
    const state = await readWindow();
    if (state.whole) return false;
    if (state.head !== undefined) return true;
    return (await db.posts.filter((row) => row.sync !== undefined).first()) === undefined;
  });
}

/** A window's pages are stored: it ends at `floor` (0: the device got every approved post). */
export async function endWindowPages(floor: number): Promise<void> {
  await withDataErrors(() =>
    db.transaction('rw', db.meta, async () => {
      await db.meta.put({ key: META_KEYS.windowFloor, value: floor });
      if (floor > 0) await db.meta.put({ key: META_KEYS.holdsPart, value: 'window' });
      else if ((await db.meta.get(META_KEYS.holdsPart))?.value === 'window') await db.meta.delete(META_KEYS.holdsPart);
    }),
  );
  emitLocalChange('space-freed');
}

/** The ids of the approved posts this device keeps whatever their age: `me`'s saved and own posts, and those the outbox still has to send. */
async function keptIds(me: string): Promise<Set<number>> {
  const keep = new Set<number>();
  await db.saved
    .where('[email+at]')
    .between([me, Dexie.minKey], [me, Dexie.maxKey])
    .each((row) => {
      if (row.saved) keep.add(row.postId);
    });
  await db.outbox.orderBy('postId').eachKey((postId) => {
    keep.add(postId as number);
  });
  await db.posts
    .where('[authorEmail+id]')
    .between([me, Dexie.minKey], [me, Dexie.maxKey])
    .eachPrimaryKey((id) => {
      keep.add(id);
    });
  return keep;
}

/**
 * Removes the oldest approved posts (with their replies and views) past the newest `keepNewest`,
 * but never one saved by `email`, written by `email`, in the outbox, or that the server never had
 * (local-only). Inside the caller's readwrite transaction on posts, replies, viewed, saved, outbox
 * and meta. Returns the ids removed; the floor rises past them.
 */
export async function removeOldPosts(email: string, keepNewest: number): Promise<number[]> {
  const keep = await keptIds(normalizeEmail(email));
  // Keys first (no rows read), then the candidates' rows in chunks: at 100,000 posts the whole
  // table is never in memory at once.
  const approved = await db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).primaryKeys();
  const candidates = approved.slice(0, Math.max(0, approved.length - keepNewest)).filter((id) => !keep.has(id));
  const ids: number[] = [];
  for (let at = 0; at < candidates.length; at += CHUNK) {
    const rows = await db.posts.bulkGet(candidates.slice(at, at + CHUNK));
    // A post the server never had (from before this device met it) lives only here.
    for (const row of rows) if (row?.sync) ids.push(row.id);
  }
  if (ids.length === 0) return [];
  const leaving = new Set(ids);
  await db.posts.bulkDelete(ids);
  await db.replies.where('postId').anyOf(ids).delete();
  await db.viewed.filter((view) => leaving.has(view.postId)).delete();
  await noteRemovedPosts(ids);
  const floor = (await db.meta.get(META_KEYS.windowFloor))?.value;
  const above = Math.max(...ids) + 1;
  if (typeof floor !== 'number' || floor < above) await db.meta.put({ key: META_KEYS.windowFloor, value: above });
  await countChange();
  return ids;
}

/**
 * Keeps this device under its budget (connected, not holding the whole forum by choice): past
 * POSTS_BUDGET and a twentieth more approved posts, the oldest leave down to POSTS_BUDGET (removeOldPosts)
 * and the device holds part of the forum. Returns how many left.
 */
export async function keepWithinBudget(email: string, budget = POSTS_BUDGET): Promise<number> {
  const removed = await withDataErrors(() =>
    db.transaction('rw', [db.posts, db.replies, db.reads, db.viewed, db.saved, db.outbox, db.meta], async () => {
      if (!(await isConnectedDevice()) || (await db.meta.get(META_KEYS.windowWhole)) !== undefined) return [];
      const count = await db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).count();
      if (count <= budget + slackOf(budget)) return [];
      const ids = await removeOldPosts(email, budget);
      if (ids.length > 0 && (await db.meta.get(META_KEYS.holdsPart)) === undefined)
        await db.meta.put({ key: META_KEYS.holdsPart, value: 'window' });
      return ids;
    }),
  );
  if (removed.length > 0) emitLocalChange('space-freed');
  return removed.length;
}

/** What Profile's storage panel says of the forum on this device: how many posts, whole or a window, and any download under way. */
export interface WindowSummary {
  posts: number;
  whole: boolean;
  part: HoldsPart | undefined;
}

export async function readWindowSummary(): Promise<WindowSummary> {
  return withDataErrors(async () => {
    const [whole, part] = await db.meta.bulkGet([META_KEYS.windowWhole, META_KEYS.holdsPart]);
    const posts = await db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).count();
    return { posts, whole: whole !== undefined, part: part?.value as HoldsPart | undefined };
  });
}
