// The words of a bulk review's toast: how many were reviewed, which were already reviewed (by
// title), and for how long Undo works.
import type { ToastMessage } from '../../components/toast/toast-context';
import type { BulkReview } from '../../db/moderation/review';
import { plural } from '../../lib/format';
import { UNDO_WINDOW_MS } from '../../shared/post-rules';

const titles = (list: BulkReview['alreadyReviewed']) => list.map((post) => `“${post.title}”`).join(', ');

/** The toast after a bulk review (without its Undo action, which the caller adds). */
export function bulkReviewToast(result: BulkReview, decision: 'approve' | 'reject'): ToastMessage {
  const already = result.alreadyReviewed.length > 0 ? `Already reviewed elsewhere: ${titles(result.alreadyReviewed)}. ` : '';
  if (result.reviewed.length === 0) {
    return { title: 'Nothing to review', description: `${already}Those posts had been reviewed already.`, variant: 'info' };
  }
  const verb = decision === 'approve' ? 'approved' : 'rejected';
  return {
    title: `${plural(result.reviewed.length, 'post')} ${verb}`,
    description: `${already}You can undo this for ${Math.round(UNDO_WINDOW_MS / 1000)} seconds.`,
    until: result.undo?.until,
  };
}
