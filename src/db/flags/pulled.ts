// Writing the server's flags into IndexedDB (connected mode): each is upserted by id when newer than
// what the device holds, with this device's outstanding operations about its post replayed on top
// (an item's flags dismissed, or settled by a hide, here stay so while that operation is
// outstanding). A refusal puts back the server's word. Runs inside the caller's readwrite
// transaction on flags, posts, replies and outbox.

import { db, type FlagRow, type OutboxRow } from '../storage/schema';
import { flagRow } from './flag-rows';
import { newerThanStored } from '../storage/newer';
import { targetKey, type Flag, type FlagState, type FlagTarget } from '../../shared/moderation';
import type { WireFlag } from '../../shared/protocol';
import { isOutstanding, replay, serverPost, serverReply } from '../ops/replay';
import { MemoryStore } from '../ops/memory-store';

/** The operations about a flag's post still outstanding over the server's word on it. */
const outstandingFor = (flag: Flag, seq: number, ops: readonly OutboxRow[]) =>
  ops.filter((entry) => entry.postId === flag.postId && isOutstanding(entry, { seq }));

/** The state a flag shows: the server's, with the outstanding operations about its post replayed on top. */
async function shownState(flag: Flag, outstanding: readonly OutboxRow[]): Promise<FlagState> {
  const store = new MemoryStore();
  store.flags.set(flag.id, flag);
  const post = await db.posts.get(flag.postId);
  if (post) store.posts.set(post.id, serverPost(post));
  const reply = flag.replyId ? await db.replies.get(flag.replyId) : undefined;
  if (reply) store.replies.set(reply.id, serverReply(reply));
  await replay(store, outstanding);
  return store.flags.get(flag.id)?.state ?? flag.state;
}

/** Stores pulled flags (or one an answer carries); returns how many rows changed. */
export async function storeServerFlags(wires: readonly WireFlag[]): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.flags.bulkGet(wires.map((wire) => wire.id));
  const ops = await db.outbox
    .where('postId')
    .anyOf([...new Set(wires.map((wire) => wire.postId))])
    .sortBy('seq');
  const rows: FlagRow[] = [];
  for (const [wire] of newerThanStored(wires, stored)) {
    const { seq, ...flag } = wire;
    // No await when nothing is outstanding (most flags): Dexie follows a transaction across only so many.
    const outstanding = outstandingFor(flag, seq, ops);
    const state = outstanding.length === 0 ? flag.state : await shownState(flag, outstanding);
    rows.push(flagRow({ ...flag, state }, { seq, state: flag.state }));
  }
  if (rows.length > 0) await db.flags.bulkPut(rows);
  return rows.length;
}

/** Shows the flags of a target as the server's word again, with what is still outstanding on top (a refused dismissal or hide). */
export async function restoreServerFlags(target: FlagTarget): Promise<void> {
  const rows = await db.flags.where('target').equals(targetKey(target)).toArray();
  const ops = await db.outbox.where('postId').equals(target.postId).sortBy('seq');
  const back: FlagRow[] = [];
  for (const row of rows) {
    if (!row.sync) continue;
    const server = { ...row, state: row.sync.state };
    const outstanding = outstandingFor(server, row.sync.seq, ops);
    const state = outstanding.length === 0 ? server.state : await shownState(server, outstanding);
    if (state !== row.state) back.push(flagRow({ ...row, state }, row.sync));
  }
  if (back.length > 0) await db.flags.bulkPut(back);
}
