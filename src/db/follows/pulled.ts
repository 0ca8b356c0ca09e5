// Writing the server's levels and read positions of this member into IndexedDB (connected mode), as
// saved posts are (saved/pulled.ts): a level is the server's word with this device's outstanding
// operations on it replayed on top (what the member did here wins until the server has it), and a
// refused one puts back the server's word. A read position only moves forward on every side, so the
// device's is the later of the server's and its own: the latest read wins and none goes backwards.
// Runs inside the caller's readwrite transaction (OP_TABLES); `unread` is counted as each row is
// written (storage/unread-upkeep.ts).
import { db, type FollowRow, type OutboxRow, type ReadRow } from '../storage/schema';
import type { WireFollow, WireRead } from '../../shared/protocol';
import type { FollowKind } from '../../shared/follows';
import { laterRead } from '../../shared/follows';
import { definitionOf } from '../../shared/ops/registry';
import { isOutstanding, replay, serverPost } from '../ops/replay';
import { NO_POST_ID } from '../ops/outbox';
import { MemoryStore } from '../ops/memory-store';
import { newerThanStored } from '../storage/newer';

/**
 * The member's queued (or applied, not yet pulled) operations that may set their level on a target,
 * oldest first: their `follow` of it, and for a post whatever they did in it (writing there makes
 * them watch it: follow.ts, followWhatTheyWrote).
 */
async function followOperations(email: string, kind: FollowKind, target: string): Promise<OutboxRow[]> {
  const postId = kind === 'post' ? Number(target) : NO_POST_ID;
  const rows = await db.outbox.where('postId').equals(postId).sortBy('seq');
  return rows.filter((row) => {
    if (row.email !== email || definitionOf(row.op.type).removes === 'post') return false;
    if (definitionOf(row.op.type).touches !== 'follows') return kind === 'post';
    const op = row.op as { kind?: unknown; target?: unknown };
    return op.kind === kind && op.target === target;
  });
}

/** A level as the server's word plus this device's outstanding operations (undefined: none to keep). */
async function followView(
  email: string,
  kind: FollowKind,
  target: string,
  sync: FollowRow['sync'],
  ops: readonly OutboxRow[],
): Promise<FollowRow | undefined> {
  const server: FollowRow | undefined = sync ? { email, kind, target, level: sync.level, at: sync.at, sync } : undefined;
  const outstanding = ops.filter((row) => isOutstanding(row, sync));
  if (outstanding.length === 0) return server;
  const store = new MemoryStore();
  const actor = { email, role: 'user' as const };
  if (sync) await store.setFollow(actor, kind, target, sync.level, sync.at);
  if (kind === 'post') {
    const post = await db.posts.get(Number(target));
    if (post) store.posts.set(post.id, serverPost(post));
  }
  await replay(store, outstanding);
  const shown = store.followOf(email, kind, target);
  return shown ? { email, kind, target, level: shown.level, at: shown.at, ...(sync ? { sync } : {}) } : undefined;
}

/** Shows one level as the server's word plus the outstanding operations (after one settled or was refused). */
export async function refreshFollow(email: string, kind: FollowKind, target: string): Promise<void> {
  const stored = await db.follows.get([email, kind, target]);
  const view = await followView(email, kind, target, stored?.sync, await followOperations(email, kind, target));
  if (view) await db.follows.put(view);
  else if (stored) await db.follows.delete([email, kind, target]);
}

/** Stores this member's pulled levels (`owner`: whose they are); returns how many rows changed. */
export async function storeServerFollows(wires: readonly WireFollow[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.follows.bulkGet(wires.map((wire) => [owner, wire.kind, wire.target] as [string, string, string]));
  let changed = 0;
  for (const [wire] of newerThanStored(wires, stored)) {
    const sync = { level: wire.level, at: wire.at, seq: wire.seq };
    const view = await followView(owner, wire.kind, wire.target, sync, await followOperations(owner, wire.kind, wire.target));
    if (view) await db.follows.put(view);
    changed += 1;
  }
  return changed;
}

/** Stores this member's pulled read positions: each the later of the server's and this device's. */
export async function storeServerReads(wires: readonly WireRead[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.reads.bulkGet(wires.map((wire) => [owner, wire.postId] as [string, number]));
  const rows: ReadRow[] = newerThanStored(wires, stored).map(([wire, held]) => ({
    email: owner,
    postId: wire.postId,
    readTo: laterRead(held?.readTo, wire.readTo)!,
    unread: held?.unread ?? 0,
    sync: { readTo: wire.readTo, seq: wire.seq },
  }));
  await db.reads.bulkPut(rows);
  return rows.length;
}

/**
 * Shows one read position as the server's word after this device's operations on the post settled
 * or were refused: while one is still outstanding the position held stands (it is the later one);
 * with none, the later of the server's and the one held when the server has one, else none.
 */
export async function refreshRead(email: string, postId: number): Promise<void> {
  const stored = await db.reads.get([email, postId]);
  if (!stored) return;
  const outstanding = (await db.outbox.where('postId').equals(postId).toArray()).some(
    (row) => row.email === email && isOutstanding(row, stored.sync),
  );
  if (outstanding) return;
  if (!stored.sync) await db.reads.delete([email, postId]);
}
