import { describe, expect, it } from 'vitest';
import { bulkReviewToast } from '../../../../src/features/admin/bulk-toast';

describe("a bulk review's toast", () => {
  it('counts what it reviewed and offers Undo until the token runs out', () => {
    const toast = bulkReviewToast({ reviewed: [1, 2, 3], alreadyReviewed: [], undo: { token: 't', until: 42 } }, 'approve');
    expect(toast).toMatchObject({ title: '3 posts approved', description: 'You can undo this for 5 seconds.', until: 42 });
  });

  it('names the posts another tab or admin reviewed first, by title', () => {
    const toast = bulkReviewToast(
      { reviewed: [1], alreadyReviewed: [{ id: 2, title: 'Panel fatigue' }], undo: { token: 't', until: 1 } },
      'reject',
    );
    expect(toast.title).toBe('1 post rejected');
    expect(toast.description).toBe('Already reviewed elsewhere: “Panel fatigue”. You can undo this for 5 seconds.');
  });

  it('says so when every post had been reviewed already', () => {
    const toast = bulkReviewToast({ reviewed: [], alreadyReviewed: [{ id: 2, title: 'A' }], undo: null }, 'approve');
    expect(toast).toMatchObject({ title: 'Nothing to review', variant: 'info' });
    expect(toast.description).toContain('“A”');
  });
});
