// Writing what the server says into IndexedDB (connected mode): server posts become rows with
// their server state and this device's outstanding operations on top; a temporary or local-only
// row that stands on an id the server gave to another post moves out of its way first (with its
// levels and read positions; one that is that very post becomes the server's row); a post this
// device deleted stays deleted while its deletion is outstanding; removed posts leave.
// Every function here runs inside the caller's readwrite transaction: SERVER_POST_TABLES for
// storing, OP_TABLES for removing (ops/op-tables.ts).

import Dexie from 'dexie';
import { db, type OutboxRow, type PostRow, type ReplyRow, type SavedRow, type ServerState } from '../storage/schema';
import { nextRev } from '../storage/revisions';
import type { WirePost } from '../../shared/protocol';
import { countVisibleReplies } from '../replies/reply-counts';
import { noteRemovedPosts } from '../storage/removals';
import { deleteUndoEntry, getUndoEntry, putUndoEntry } from '../ops/undo';
import { fieldsOf, isOutstanding, localView } from '../ops/replay';
import { definitionOf } from '../../shared/ops/registry';

/** A queued deletion of its post (its definition `removes` the post). */
const deletesPost = (entry: OutboxRow) => definitionOf(entry.op.type).removes === 'post';
/** A queued edit of its post's words (its definition `keeps` an edit). */
const editsPost = (entry: OutboxRow) => definitionOf(entry.op.type).keeps === 'edit';

/** A fresh local id for a row that has to move: a timestamp above every stored id. */
async function freshLocalId(): Promise<number> {
  const last = await db.posts.orderBy('id').lastKey();
  return Math.max(Date.now(), (typeof last === 'number' ? last : 0) + 1);
}

/**
 * Moves a row and the operations about it from one id to another (the row keeps its content). A
 * deletion stays: it is always about the server's post of that id, never about the row moving.
 */
export async function rekeyPost(from: number, to: number, replacement?: PostRow): Promise<void> {
  const row = await db.posts.get(from);
  await db.outbox
    .where('postId')
    .equals(from)
    .filter((entry) => definitionOf(entry.op.type).removes !== 'post')
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
  // Saved rows follow too (a post an admin approved here before it reached the server).
  await db.saved
    .filter((saved) => saved.postId === from)
    .modify((saved: SavedRow) => {
      saved.postId = to;
    });
  // So do the member's level on it and read position (writing it made them watch it: follow.ts).
  const follows = await db.follows.filter((follow) => follow.kind === 'post' && follow.target === String(from)).toArray();
  await db.follows.bulkDelete(follows.map((follow) => [follow.email, follow.kind, follow.target] as [string, string, string]));
  await db.follows.bulkPut(follows.map((follow) => ({ ...follow, target: String(to) })));
  const reads = await db.reads.where('postId').equals(from).toArray();
  await db.reads.bulkDelete(reads.map((read) => [read.email, from] as [string, number]));
  await db.reads.bulkPut(reads.map((read) => ({ ...read, postId: to })));
  if (!row) return;
  await db.posts.delete(from);
  await noteRemovedPosts([from]);
  await db.posts.put({ ...(replacement ?? row), id: to, rev: await nextRev() });
}

/** A server post as this device stores it when nothing of this device is outstanding on it (no await: Dexie follows a transaction across only so many). */
function plainServerRow(wire: WirePost, rev: number | undefined): PostRow {
  const { seq, poll, attachments = [], ...fields } = wire;
  // Most posts carry no files: an empty list is not stored.
  const post = attachments.length > 0 ? { ...fields, attachments } : fields;
  const sync: ServerState = { seq, likes: post.likes, status: post.status, views: post.views, reason: post.reason ?? null };
  if (!poll) return { ...post, sync, rev };
  return { ...post, poll, sync: { ...sync, poll }, rev };
}

/** The row a server post becomes on this device, given its outstanding operations (the server's text kept while an edit is outstanding). */
export async function serverRow(wire: WirePost, ops: readonly OutboxRow[], rev: number | undefined): Promise<PostRow> {
  const row = plainServerRow(wire, rev);
  const sync = row.sync!;
  if (ops.some((entry) => editsPost(entry) && isOutstanding(entry, sync))) sync.fields = fieldsOf(row);
  return { ...row, ...(await localView(sync, ops, row)), sync };
}

/**
 * Shows a synced post as its server state plus its outstanding operations; call inside a
 * transaction. The server's text is kept (`sync.fields`) only while an edit is outstanding.
 */
export async function refreshLocalView(postId: number): Promise<void> {
  const row = await db.posts.get(postId);
  if (!row?.sync) return;
  const ops = await db.outbox.where('postId').equals(postId).sortBy('seq');
  const editing = ops.some((entry) => editsPost(entry) && isOutstanding(entry, row.sync));
  const sync = { ...row.sync };
  if (!editing) delete sync.fields;
  const view = await localView(row.sync, ops, row);
  const changes: Partial<PostRow> = {};
  for (const [field, value] of Object.entries(view) as [keyof typeof view, unknown][]) {
    if (JSON.stringify(row[field]) !== JSON.stringify(value)) (changes as Record<string, unknown>)[field] = value;
  }
  if (Boolean(row.sync.fields) !== Boolean(sync.fields)) changes.sync = sync;
  if (Object.keys(changes).length === 0) return;
  // A change of status or text gets a new change number, so the search index follows it.
  if (
    changes.status ||
    changes.title !== undefined ||
    changes.content !== undefined ||
    changes.category !== undefined ||
    changes.tags !== undefined
  )
    changes.rev = await nextRev();
  await db.posts.update(postId, changes);
}

/** True when the stored operations hold this device's deletion of the post, not yet settled by a pull. */
const deletedHere = (ops: readonly OutboxRow[]) => ops.some(deletesPost);

/** Keeps the server's newer version of a post deleted here in its Undo entry, so that Undo (or a refusal) puts back the latest. */
async function refreshKeptCopy(wire: WirePost, ops: readonly OutboxRow[]): Promise<void> {
  const token = ops.find(deletesPost)?.undoToken;
  const entry = token ? await getUndoEntry(token) : undefined;
  if (!entry?.post?.sync || entry.post.sync.seq >= wire.seq) return;
  const row = await serverRow(wire, entry.ops, entry.post.rev);
  row.comments = entry.replies.filter((reply) => reply.state === 'visible').length;
  await putUndoEntry({ ...entry, post: row });
}

/** A row of this device's own that holds the server post `wire` itself: its words, category and author. */
const samePost = (row: PostRow, wire: WirePost) =>
  row.title === wire.title &&
  row.content === wire.content &&
  row.category === wire.category &&
  row.author === wire.author &&
  (row.authorEmail === wire.authorEmail || row.authorEmail === '');

/** A change of status, text or what the search filters read (author, tags): the search index must read the post again. */
const searchChanged = (stored: PostRow, row: PostRow) =>
  stored.status !== row.status ||
  stored.title !== row.title ||
  stored.content !== row.content ||
  stored.category !== row.category ||
  stored.author !== row.author ||
  JSON.stringify(stored.tags) !== JSON.stringify(row.tags);

/**
 * Stores server posts (newer than what the device holds), keeping the device's outstanding
 * operations on top (an acknowledged one only over rows older than the change that holds it). A
 * post deleted here whose deletion is not settled yet is not stored (its Undo entry keeps the
 * newer version instead). A post new to this device arrives at `arrivedAt` (what's new). Returns
 * how many rows changed.
 */
export async function storeServerPosts(wires: readonly WirePost[], arrivedAt = Date.now()): Promise<number> {
  if (wires.length === 0) return 0;
  const ids = wires.map((wire) => wire.id);
  // One key-ordered walk over the ids that exist (a first sync finds none) instead of one get per id.
  const found = new Map((await db.posts.where('id').anyOf(ids).toArray()).map((row) => [row.id, row]));
  const existing = ids.map((id) => found.get(id));
  // A row whose create is still queued is the member's own post, whatever it holds: it moves aside.
  const ownRows = existing.filter((row) => row !== undefined && !row.sync).map((row) => row!.id);
  const queuedCreates = new Set(
    ownRows.length === 0
      ? []
      : (
          await db.outbox
            .where('postId')
            .anyOf(ownRows)
            .filter((entry) => definitionOf(entry.op.type).creates === 'post')
            .toArray()
        ).map((entry) => entry.postId),
  );
  for (const [index, stored] of existing.entries()) {
    // A temporary or local-only row holds the id the server gave another post: move it aside. One
    // that is this very post (the `posts` copy of a connected device imported again into an emptied
    // database: same words, category and author) is the server's row from now on, never a second
    // post offered for upload.
    if (stored && !stored.sync && (queuedCreates.has(stored.id) || !samePost(stored, wires[index]!))) {
      await rekeyPost(stored.id, await freshLocalId());
      existing[index] = undefined;
    }
  }
  const ops = await db.outbox.where('postId').anyOf(ids).sortBy('seq');
  const rows: PostRow[] = [];
  let rev = await nextRev();
  for (const [index, wire] of wires.entries()) {
    const stored = existing[index];
    const mine = ops.filter((entry) => entry.postId === wire.id);
    if (deletedHere(mine)) {
      await refreshKeptCopy(wire, mine);
      continue;
    }
    if (stored?.sync && stored.sync.seq >= wire.seq) continue;
    // Most rows have nothing outstanding (a first sync): they are the server's word as it is.
    const row = mine.length === 0 ? plainServerRow(wire, stored?.rev) : await serverRow(wire, mine, stored?.rev);
    // When it first reached this device (what's new): kept by every later version of the row.
    row.arrivedAt = stored ? stored.arrivedAt : arrivedAt;
    if (row.arrivedAt === undefined) delete row.arrivedAt;
    // The count is this device's visible replies (the server's own count, once they are pulled too).
    if (wire.comments > 0 || (stored?.comments ?? 0) > 0) row.comments = await countVisibleReplies(wire.id);
    if (!stored || searchChanged(stored, row)) row.rev = rev++;
    rows.push(row);
  }
  if (rows.length > 0) await db.posts.bulkPut(rows);
  return rows.length;
}

/**
 * Removes the posts the server deleted (a pull's `removed`) with their replies, views and queued
 * operations, and this device's own pending deletions of them; a row without `sync` that stands on
 * such an id is this device's own and stays.
 * Returns how many posts left.
 */
export async function removeServerPosts(ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.posts.bulkGet([...ids]);
  // One read of the operations and one walk of the views for the whole page (a first pull may
  // bring thousands of tombstones, most of posts this device never held).
  const opsByPost = new Map<number, OutboxRow[]>();
  for (const entry of await db.outbox
    .where('postId')
    .anyOf([...ids])
    .toArray()) {
    const list = opsByPost.get(entry.postId);
    if (list) list.push(entry);
    else opsByPost.set(entry.postId, [entry]);
  }
  const gone: number[] = [];
  const cleared = new Set<number>();
  for (const [index, id] of ids.entries()) {
    const row = rows[index];
    const ops = opsByPost.get(id) ?? [];
    if (!row && ops.length === 0) {
      cleared.add(id);
      continue;
    }
    // This device's deletion (held, or not answered yet) has nothing left to do.
    const deletions = ops.filter(deletesPost);
    for (const entry of deletions) await deleteUndoEntry(entry.undoToken);
    // A row the server never had on this id (this device's own) stays, with its operations.
    const ours = row !== undefined && !row.sync;
    await db.outbox.bulkDelete((ours ? deletions : ops).map((entry) => entry.seq!));
    if (ours) continue;
    cleared.add(id);
    if (row) {
      await db.posts.delete(id);
      gone.push(id);
    }
  }
  for (const id of cleared) await db.replies.where('[postId+state]').between([id, Dexie.minKey], [id, Dexie.maxKey]).delete();
  if (cleared.size > 0) await db.viewed.filter((view) => cleared.has(view.postId)).delete();
  // The read positions in them and the levels on them go with them (issue 62).
  if (cleared.size > 0) {
    await db.reads
      .where('postId')
      .anyOf([...cleared])
      .delete();
    const targets = new Set([...cleared].map(String));
    await db.follows.filter((follow) => follow.kind === 'post' && targets.has(follow.target)).delete();
    // So do the notifications about them (their title among them), as the server's pull no longer sends them.
    await db.notifications.filter((notification) => cleared.has(notification.postId)).delete();
  }
  await noteRemovedPosts(gone);
  return gone.length;
}
