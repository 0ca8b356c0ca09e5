// The toast after Submit Post says where the post is (issue 59, item 7): offline, nothing reached an admin yet.
import { describe, expect, it } from 'vitest';
import { submittedToast } from '../../../../src/features/posting/submitted-toast';

describe('the Post Submitted! toast', () => {
  it('offline on a connected device: kept here, sent for review when back online', () => {
    for (const [state, online] of [
      ['offline', false],
      ['offline', true],
      ['synced', false],
    ] as const) {
      const toast = submittedToast(state, online);
      expect(toast.title).toBe('Post Submitted!');
      expect(toast.description).toContain('sent to an admin for review when this device is back online');
      expect(toast.description).not.toContain('now pending approval');
    }
  });

  it('connected and online, or local-only: pending approval from an admin', () => {
    for (const [state, online] of [
      ['synced', true],
      ['syncing', true],
      ['local', false],
      ['local', true],
    ] as const) {
      expect(submittedToast(state, online)).toEqual({
        title: 'Post Submitted!',
        description: 'Your post is now pending approval from an admin.',
      });
    }
  });
});
