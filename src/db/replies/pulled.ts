// Writing the replies the server sends into IndexedDB (connected mode): each becomes a row with
// its server state and this device's outstanding reply operations on top, and the posts they
// belong to get their visible-reply count again. Runs inside the caller's readwrite transaction
// on posts, replies, meta and outbox.

import { db, type OutboxRow, type ReplyRow } from '../storage/schema';
import type { WireReply } from '../../shared/protocol';
import { recountComments } from './reply-counts';
import { localReplyView } from '../ops/replay';
import { operationsForReply } from '../ops/outbox';

/** A server reply as this device stores it. */
function plainReplyRow(wire: WireReply): ReplyRow {
  const { seq, ...reply } = wire;
  return {
    ...reply,
    listed: reply.state === 'deleted' ? 0 : 1,
    sync: { seq, content: reply.content, state: reply.state, editedAt: reply.editedAt },
  };
}

/** The row a server reply becomes on this device, with the outstanding operations about it on top. */
async function replyRow(wire: WireReply, ops: readonly OutboxRow[]): Promise<ReplyRow> {
  const row = plainReplyRow(wire);
  const view = await localReplyView(row, await db.posts.get(wire.postId), ops);
  return { ...row, ...view, listed: view.state === 'deleted' ? 0 : 1 };
}

/**
 * Stores server replies newer than the device's copies (one new here arrives at `arrivedAt`), keeping outstanding operations on top,
 * and recounts the posts' visible replies (acknowledged operations leave the outbox once a pull passes them).
 * Returns how many rows changed.
 */
export async function storeServerReplies(wires: readonly WireReply[], arrivedAt = Date.now()): Promise<number> {
  if (wires.length === 0) return 0;
  const found = new Map(
    (await db.replies.bulkGet(wires.map((wire) => wire.id)))
      .filter((row): row is ReplyRow => row !== undefined)
      .map((row) => [row.id, row]),
  );
  const ops = await db.outbox
    .where('postId')
    .anyOf([...new Set(wires.map((wire) => wire.postId))])
    .sortBy('seq');
  const rows: ReplyRow[] = [];
  const posts = new Set<number>();
  // The replies of a post this device deleted (its deletion not settled yet) are stored all the
  // same: nothing shows them without their post, Undo then finds the newest, and the post's
  // tombstone takes them away.
  for (const wire of wires) {
    const stored = found.get(wire.id);
    if (stored?.sync && stored.sync.seq >= wire.seq) continue;
    const mine = ops.filter((entry) => entry.replyId === wire.id);
    const row = mine.length === 0 ? plainReplyRow(wire) : await replyRow(wire, mine);
    // When it first reached this device (what's new): kept by every later version of the row.
    if (stored?.arrivedAt !== undefined) row.arrivedAt = stored.arrivedAt;
    else if (!stored) row.arrivedAt = arrivedAt;
    rows.push(row);
    posts.add(wire.postId);
    if (stored) posts.add(stored.postId);
  }
  if (rows.length > 0) await db.replies.bulkPut(rows);
  for (const postId of posts) await recountComments(postId);
  return rows.length;
}

/** Shows a synced reply as its server state plus the operations still outstanding (after one settled or was undone). */
export async function refreshReplyView(replyId: string): Promise<void> {
  const row = await db.replies.get(replyId);
  if (!row?.sync) return;
  const view = await localReplyView(row, await db.posts.get(row.postId), await operationsForReply(row.postId, replyId));
  const listed = view.state === 'deleted' ? 0 : 1;
  if (view.content === row.content && view.state === row.state && view.editedAt === row.editedAt && listed === row.listed) return;
  await db.replies.put({ ...row, ...view, listed });
  await recountComments(row.postId);
}

/** Shows replies put back by an Undo as their newest server state with this device's operations on top, and recounts their posts. */
export async function showNewestReplies(replies: readonly { id: string; postId: number }[]): Promise<void> {
  for (const reply of replies) await refreshReplyView(reply.id);
  for (const postId of new Set(replies.map((reply) => reply.postId))) await recountComments(postId);
}
