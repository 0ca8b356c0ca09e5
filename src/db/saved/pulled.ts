// Writing the server's saved posts of this member into IndexedDB (connected mode): each row is the
// server's word with this device's outstanding `save` operations replayed on top (what the member
// did here wins until the server has it); a refused save puts back the server's word. Runs inside
// the caller's readwrite transaction on saved, posts and outbox.

import { db, type OutboxRow, type SavedRow } from '../storage/schema';
import type { WireSaved } from '../../shared/protocol';
import { isOutstanding, replay, serverPost } from '../ops/replay';
import { definitionOf } from '../../shared/ops/registry';
import { newerThanStored } from '../storage/newer';
import { MemoryStore } from '../ops/memory-store';

/** The member's queued (or applied, not yet pulled) `save` operations about one post, oldest first. */
async function saveOperations(email: string, postId: number): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('postId').equals(postId).sortBy('seq');
  return rows.filter((row) => row.email === email && definitionOf(row.op.type).touches === 'saved');
}

/** A saved row as the server's word plus this device's outstanding saves (undefined: nothing to keep). */
async function savedView(email: string, postId: number, sync: SavedRow['sync'], ops: readonly OutboxRow[]): Promise<SavedRow | undefined> {
  const server: SavedRow | undefined = sync ? { email, postId, saved: sync.saved, at: sync.at, sync } : undefined;
  const outstanding = ops.filter((row) => isOutstanding(row, sync));
  if (outstanding.length === 0) return server;
  const store = new MemoryStore();
  if (sync) await store.setSaved({ email, role: 'user' }, postId, sync.saved, sync.at);
  const post = await db.posts.get(postId);
  if (post) store.posts.set(postId, serverPost(post));
  await replay(store, outstanding);
  const shown = store.savedOf(email, postId);
  return shown ? { email, postId, saved: shown.saved, at: shown.at, ...(sync ? { sync } : {}) } : undefined;
}

/** Shows one saved row as the server's word plus the outstanding saves (after one settled or was refused). */
export async function refreshSaved(email: string, postId: number): Promise<void> {
  const stored = await db.saved.get([email, postId]);
  const view = await savedView(email, postId, stored?.sync, await saveOperations(email, postId));
  if (view) await db.saved.put(view);
  else if (stored) await db.saved.delete([email, postId]);
}

/** Stores this member's pulled saved posts (`owner`: whose they are); returns how many rows changed. */
export async function storeServerSaved(wires: readonly WireSaved[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.saved.bulkGet(wires.map((wire) => [owner, wire.postId] as [string, number]));
  let changed = 0;
  for (const [wire] of newerThanStored(wires, stored)) {
    const sync = { postId: wire.postId, saved: wire.saved, at: wire.at, seq: wire.seq };
    const ops = await saveOperations(owner, wire.postId);
    const view =
      ops.length === 0
        ? { email: owner, postId: wire.postId, saved: wire.saved, at: wire.at, sync }
        : await savedView(owner, wire.postId, sync, ops);
    if (view) await db.saved.put(view);
    changed += 1;
  }
  return changed;
}
