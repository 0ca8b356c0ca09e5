// Writing what the server says into IndexedDB (connected mode): server posts become rows with
// their server state and this device's outstanding operations on top; a temporary or local-only
// row that stands on an id the server gave to another post moves out of its way first.
// Every function here runs inside the caller's readwrite transaction on posts, meta and outbox.

import Dexie from 'dexie';
import { db, type OutboxRow, type PostRow, type ReplyRow } from '../core/schema';
import { nextRev } from '../core/revisions';
import type { WirePost } from '../../shared/protocol';
import { countVisibleReplies } from '../core/reply-counts';
import { localView } from './overlay';

/** A fresh local id for a row that has to move: a timestamp above every stored id. */
async function freshLocalId(): Promise<number> {
  const last = await db.posts.orderBy('id').lastKey();
  return Math.max(Date.now(), (typeof last === 'number' ? last : 0) + 1);
}

/** Moves a row and the operations about it from one id to another (the row keeps its content). */
export async function rekeyPost(from: number, to: number, replacement?: PostRow): Promise<void> {
  const row = await db.posts.get(from);
  await db.outbox
    .where('postId')
    .equals(from)
    .modify((entry: OutboxRow) => {
      entry.postId = to;
      if ('postId' in entry.op) entry.op = { ...entry.op, postId: to };
    });
  // Replies follow their post (an admin may reply offline to a post they wrote and approved there).
  await db.replies
    .where('[postId+state]')
    .between([from, Dexie.minKey], [from, Dexie.maxKey])
    .modify((reply: ReplyRow) => {
      reply.postId = to;
    });
  if (!row) return;
  await db.posts.delete(from);
  await db.posts.put({ ...(replacement ?? row), id: to, rev: await nextRev() });
}

/** The row a server post becomes on this device, given its outstanding operations. */
export function serverRow(wire: WirePost, ops: readonly OutboxRow[], rev: number | undefined): PostRow {
  const { seq, ...post } = wire;
  const sync = { seq, likes: post.likes, status: post.status, views: post.views };
  return { ...post, ...localView(sync, ops), sync, rev };
}

/**
 * Stores server posts (newer than what the device holds), keeping the device's outstanding
 * operations on top, and drops acknowledged operations that the new state already includes.
 * Returns how many rows changed.
 */
export async function storeServerPosts(wires: readonly WirePost[]): Promise<number> {
  if (wires.length === 0) return 0;
  const ids = wires.map((wire) => wire.id);
  // One key-ordered walk over the ids that exist (a first sync finds none) instead of one get per id.
  const found = new Map((await db.posts.where('id').anyOf(ids).toArray()).map((row) => [row.id, row]));
  const existing = ids.map((id) => found.get(id));
  for (const [index, stored] of existing.entries()) {
    // A temporary or local-only row holds the id the server gave another post: move it aside.
    if (stored && !stored.sync) {
      await rekeyPost(stored.id, await freshLocalId());
      existing[index] = undefined;
    }
  }
  const ops = await db.outbox.where('postId').anyOf(ids).sortBy('seq');
  const rows: PostRow[] = [];
  const included: number[] = [];
  let rev = await nextRev();
  for (const [index, wire] of wires.entries()) {
    const stored = existing[index];
    if (stored?.sync && stored.sync.seq >= wire.seq) continue;
    const mine = ops.filter((entry) => entry.postId === wire.id);
    const row = serverRow(wire, mine, stored?.rev);
    // The count is this device's visible replies (the server's own count, once they are pulled too).
    if (wire.comments > 0 || (stored?.comments ?? 0) > 0) row.comments = await countVisibleReplies(wire.id);
    if (!stored || stored.status !== row.status) row.rev = rev++;
    rows.push(row);
    for (const entry of mine) if (entry.ackCursor !== undefined && entry.ackCursor <= wire.seq) included.push(entry.seq!);
  }
  if (rows.length > 0) await db.posts.bulkPut(rows);
  if (included.length > 0) await db.outbox.bulkDelete(included);
  return rows.length;
}
