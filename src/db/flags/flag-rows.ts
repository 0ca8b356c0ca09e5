// Flag rows and their settling. Hiding or deleting a post or reply settles its open flags
// ('resolved'), on either mode at once: posts, replies and moderation all call these inside their
// own readwrite transaction (which must include `flags`). A deletion's Undo reopens what it settled.

import { db, type FlagRow } from '../storage/schema';
import { targetKey, type Flag, type FlagState, type FlagTarget } from '../../shared/moderation';

/** A stored flag as the app shows it (without the row's bookkeeping). */
export function toFlag(row: Flag): Flag {
  const { id, postId, replyId, reason, text, flagger, flaggerEmail, createdAt, state } = row;
  return { id, postId, replyId, reason, text, flagger, flaggerEmail, createdAt, state };
}

/** The row of a flag in `state`. */
export function flagRow(flag: Flag, sync?: FlagRow['sync']): FlagRow {
  const row: FlagRow = { ...toFlag(flag), target: targetKey(flag), open: flag.state === 'open' ? 1 : 0 };
  if (sync) row.sync = sync;
  return row;
}

/** The open flags of one target (an index range). */
export function openFlagsOf(target: FlagTarget) {
  return db.flags.where('[open+target]').equals([1, targetKey(target)]);
}

/** Settles the open flags of these targets; returns the ids it settled (for an Undo). */
export async function settleFlags(targets: readonly FlagTarget[], state: Exclude<FlagState, 'open'>): Promise<string[]> {
  const ids: string[] = [];
  for (const target of targets) {
    const rows = await openFlagsOf(target).toArray();
    for (const row of rows) ids.push(row.id);
    if (rows.length > 0) await db.flags.bulkPut(rows.map((row) => ({ ...row, state, open: 0 as const })));
  }
  return ids;
}

/** The targets of a post and each of its replies (a deleted post settles its replies' flags too). */
export function targetsOfPost(postId: number, replies: readonly { id: string }[]): FlagTarget[] {
  return [{ postId, replyId: null }, ...replies.map((reply) => ({ postId, replyId: reply.id }))];
}

/** Opens again the flags a deletion settled (its Undo), unless something else settled them since. */
export async function reopenFlags(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = (await db.flags.bulkGet([...ids])).filter((row): row is FlagRow => row !== undefined && row.state === 'resolved');
  if (rows.length > 0)
    await db.flags.bulkPut(
      rows.map((row) => ({ ...row, state: row.sync?.state ?? 'open', open: (row.sync?.state ?? 'open') === 'open' ? 1 : 0 })),
    );
}
