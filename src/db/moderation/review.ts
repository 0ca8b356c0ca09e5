// Reviewing several pending posts at once (bulk Approve/Reject selected), with Undo for
// UNDO_WINDOW_MS: the posts leave the queue at once in every tab; a connected device holds each
// review's operation in the outbox (`holdUntil`, one `undoToken` for all) as a deletion's is held
// (posts/editing.ts), and the Undo entry (`undo:<token>`, ops/undo.ts) keeps each post as it was.
// Single reviews stay approvePost / rejectPost(id, reason?) in posts/posts.ts.

import { db, type PostRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { countChange, nextRev } from '../storage/revisions';
import { DataError, isDataError, withDataErrors } from '../storage/errors';
import { deleteUndoEntry, getUndoEntry, putUndoEntry, runUndoable, UNDO_GRACE_MS, type UndoEntry, type UndoToken } from '../ops/undo';
import { requireAdmin } from '../members/guards';
import { refreshLocalView } from '../posts/pulled';
import { applyOperation } from '../ops/run';
import { OP_TABLES } from '../ops/op-tables';
import { reasonText } from '../../shared/ops/fields';
import { OpRefusal } from '../../shared/ops/define';

/** What a bulk review did. */
export interface BulkReview {
  /** The posts it reviewed (in the order given). */
  reviewed: number[];
  /** The posts that were no longer pending here (reviewed by another tab or admin first), with their titles. */
  alreadyReviewed: { id: number; title: string }[];
  /** Undo within UNDO_WINDOW_MS (null when nothing was reviewed). */
  undo: UndoToken | null;
}

const run = withDataErrors;

/** A rejection's reason as typed, checked by the operation's own rule before anything is written (`invalid`). */
function checkedReason(reason: string | undefined): string | null {
  try {
    return reasonText(reason);
  } catch (error) {
    if (error instanceof OpRefusal) throw new DataError(error.code, { message: error.reason, title: error.title });
    throw error;
  }
}

/**
 * Approves or rejects every pending post of `ids` in one transaction (admin only), each by its
 * operation (`approve` / `reject`). Each post leaves the queue at once in every tab; in connected
 * mode each review is queued held for UNDO_WINDOW_MS (+ grace) under one undo token, so Undo changes
 * nothing anywhere. `reason` (a rejection's, optional: one for all, or each post's as typed on its
 * card) is checked by validateReason, every one before anything is written. Posts already reviewed
 * are skipped and listed.
 */
export async function reviewPosts(
  ids: readonly number[],
  decision: 'approved' | 'rejected',
  reason?: string | Readonly<Record<number, string | undefined>>,
): Promise<BulkReview> {
  const session = requireAdmin();
  const reasonOf = (id: number) => (typeof reason === 'object' ? reason[id] : reason);
  const checkedReasons = new Map(ids.map((id) => [id, decision === 'rejected' ? checkedReason(reasonOf(id)) : null]));
  const { result, undo } = await runUndoable(async ({ undo, held }) => {
    const done: BulkReview = { reviewed: [], alreadyReviewed: [], undo: null };
    const entry: UndoEntry = { token: undo.token, email: session.email, until: undo.until, replies: [], viewed: [], ops: [], reviews: [] };
    for (const id of new Set(ids)) {
      const stored = await db.posts.get(id);
      try {
        const ran =
          decision === 'approved'
            ? await applyOperation(session, 'approve', { postId: id }, held)
            : await applyOperation(
                session,
                'reject',
                checkedReasons.get(id) ? { postId: id, reason: checkedReasons.get(id)! } : { postId: id },
                held,
              );
        entry.reviews!.push(ran.opSeq === undefined ? { post: stored! } : { post: stored!, opSeq: ran.opSeq });
        entry.notifications = [...(entry.notifications ?? []), ...ran.store.notificationIds];
        done.reviewed.push(id);
      } catch (error) {
        // Deleted meanwhile: nothing to review, nothing to say; reviewed by another tab or admin first: said.
        if (isDataError(error, 'already_reviewed')) done.alreadyReviewed.push({ id, title: stored!.title });
        else if (!isDataError(error, 'not_found')) throw error;
      }
    }
    if (done.reviewed.length > 0) await putUndoEntry(entry);
    return done;
  }, session);
  if (result.reviewed.length === 0) return result;
  emitLocalChange(decision === 'approved' ? 'op:approve' : 'op:reject');
  return { ...result, undo };
}

/** The review fields of a post as they were before the review. */
function reviewFields(before: PostRow): Pick<PostRow, 'status' | 'reason' | 'reviewedAt'> {
  return { status: before.status, reason: before.reason, reviewedAt: before.reviewedAt };
}

/**
 * Puts every post of a bulk review back in the queue; throws `too_late_to_undo` once a review was
 * sent. `pressedAt`: when Undo was pressed (by default, when this is called): on a device with no
 * server nothing was sent, so an Undo pressed within the window counts even when a busy device gets
 * to it after the window.
 */
export async function undoReview(token: UndoToken, pressedAt = Date.now()): Promise<void> {
  requireAdmin();
  await run(() =>
    db.transaction('rw', OP_TABLES(), async () => {
      const now = Date.now();
      const entry = await getUndoEntry(token.token);
      if (!entry?.reviews) throw new DataError('too_late_to_undo');
      const held = entry.reviews.flatMap((review) => (review.opSeq === undefined ? [] : [review.opSeq]));
      if (held.length > 0) {
        // Every review must still be held here: once one may have been sent, the server decides.
        const rows = await db.outbox.bulkGet(held);
        if (rows.some((row) => !row || row.holdUntil === undefined || now >= row.holdUntil)) throw new DataError('too_late_to_undo');
        await db.outbox.bulkDelete(held);
      } else if (pressedAt >= entry.until + UNDO_GRACE_MS) {
        throw new DataError('too_late_to_undo');
      }
      for (const { post } of entry.reviews) {
        const current = await db.posts.get(post.id);
        if (!current) continue; // deleted since: nothing to put back
        const restored: PostRow = { ...current, ...reviewFields(post), rev: await nextRev() };
        if (restored.reason === undefined) delete restored.reason;
        if (restored.reviewedAt === undefined) delete restored.reviewedAt;
        await db.posts.put(restored);
        // A synced post shows the server's state again with what else is outstanding on top.
        if (current.sync) await refreshLocalView(post.id);
      }
      if (entry.notifications?.length) await db.notifications.bulkDelete(entry.notifications);
      await countChange();
      await deleteUndoEntry(entry.token);
    }),
  );
  emitLocalChange('undone');
}
