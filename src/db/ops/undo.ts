// What a deletion removed, kept in meta under `undo:<token>` so that Undo can put it back exactly:
// the post with its replies and views, or one reply, and the queued operations that went with
// them. On a connected device the entry lives until the server has settled its held operation
// (a refusal puts the rows back from it); else until its Undo window (and a little grace) is over.

import { db } from '../storage/schema';
import { countChange, nextRev } from '../storage/revisions';
import { recountComments } from '../replies/reply-counts';
import { reopenFlags } from '../flags/flag-rows';
import { withDataErrors } from '../storage/errors';
import { requireSession } from '../members/guards';
import { UNDO_WINDOW_MS } from '../../shared/post-rules';
import type { Session } from '../types';
import { OP_TABLES } from './op-tables';
import { newOperationId } from './uuid';
import { deleteUndoEntry, purgeExpiredUndoEntries, UNDO_GRACE_MS, type UndoEntry } from './undo-entries';

export {
  deleteUndoEntry,
  getUndoEntry,
  listUndoEntries,
  purgeExpiredUndoEntries,
  putUndoEntry,
  UNDO_GRACE_MS,
  undoMetaKey,
  type UndoEntry,
} from './undo-entries';

/** What an undoable write returns: pass it to its Undo within UNDO_WINDOW_MS. */
export interface UndoToken {
  token: string;
  /** When Undo stops working (ms since the epoch). */
  until: number;
}

/** What an undoable write works with: the member, its Undo token, and the options that hold its queued operations until the window ends. */
export interface Undoable {
  session: Session;
  undo: UndoToken;
  held: { holdUntil: number; undoToken: string };
}

/**
 * Runs an undoable write (a deletion, a bulk review) in one transaction (OP_TABLES), after forgetting
 * the Undo entries whose time is over; its queued operations wait (`held`) until its Undo window ends.
 */
export async function runUndoable<T>(
  work: (undoable: Undoable) => Promise<T>,
  session: Session = requireSession(),
): Promise<{ result: T; undo: UndoToken }> {
  const now = Date.now();
  const undo: UndoToken = { token: newOperationId(), until: now + UNDO_WINDOW_MS };
  const held = { holdUntil: undo.until + UNDO_GRACE_MS, undoToken: undo.token };
  const result = await withDataErrors(() =>
    db.transaction('rw', OP_TABLES(), async () => {
      await purgeExpiredUndoEntries(now);
      return work({ session, undo, held });
    }),
  );
  return { result, undo };
}

/**
 * Puts back what the entry kept: the post (with a new change number, so the search index sees it
 * again), its replies and views, the operations the deletion dropped; recounts the post's visible
 * replies; forgets the entry. Call inside a readwrite transaction on posts, replies, viewed, meta, outbox, flags.
 */
export async function restoreUndoEntry(entry: UndoEntry): Promise<void> {
  if (entry.post) await db.posts.put({ ...entry.post, rev: await nextRev() });
  // A reply pulled again while the deletion waited (edited, hidden, deleted by someone else) keeps
  // the newer server state; the caller shows it with this device's operations on top.
  const stored = await db.replies.bulkGet(entry.replies.map((reply) => reply.id));
  const kept = entry.replies.filter((reply, index) => {
    const newer = stored[index]?.sync;
    return !newer || !reply.sync || newer.seq <= reply.sync.seq;
  });
  if (kept.length > 0) await db.replies.bulkPut(kept);
  if (entry.viewed.length > 0) await db.viewed.bulkPut(entry.viewed);
  if (entry.ops.length > 0) await db.outbox.bulkPut(entry.ops);
  await reopenFlags(entry.flags ?? []);
  for (const postId of new Set([...(entry.post ? [entry.post.id] : []), ...entry.replies.map((reply) => reply.postId)])) {
    await recountComments(postId);
  }
  await countChange();
  await deleteUndoEntry(entry.token);
}
