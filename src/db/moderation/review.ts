// Reviewing several pending posts at once (bulk Approve/Reject selected), with Undo for
// UNDO_WINDOW_MS. CONTRACT (issue 22): the signatures below are fixed; the data-layer work fills
// in the bodies. Single reviews stay approvePost / rejectPost(id, reason?) in posts/posts.ts.

import type { UndoToken } from '../posts/editing';

/** What a bulk review did. */
export interface BulkReview {
  /** The posts it reviewed (in the order given). */
  reviewed: number[];
  /** The posts that were no longer pending here (reviewed by another tab or admin first), with their titles. */
  alreadyReviewed: { id: number; title: string }[];
  /** Undo within UNDO_WINDOW_MS (null when nothing was reviewed). */
  undo: UndoToken | null;
}

/**
 * Approves or rejects every pending post of `ids` in one transaction (admin only). Each post
 * leaves the queue at once in every tab; in connected mode each review is queued held for
 * UNDO_WINDOW_MS (+ grace) under one undo token, so Undo changes nothing anywhere. `reason` (a
 * rejection's, optional) is checked by validateReason. Posts already reviewed are skipped and listed.
 */
export async function reviewPosts(ids: readonly number[], decision: 'approved' | 'rejected', reason?: string): Promise<BulkReview> {
  void ids;
  void decision;
  void reason;
  throw new Error('reviewPosts: not built yet (issue 22 data layer)');
}

/** Puts every post of a bulk review back in the queue; throws `too_late_to_undo` once a review was sent. */
export async function undoReview(token: UndoToken): Promise<void> {
  void token;
  throw new Error('undoReview: not built yet (issue 22 data layer)');
}
