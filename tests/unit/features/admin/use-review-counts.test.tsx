// @vitest-environment happy-dom
// The Admin link's counts: live for an admin, and nothing (never an error thrown into the screen)
// when the session became a member's before React re-rendered with the new role, which happens when
// the server answers that an address the device took for the admin's is a member's.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePendingCount, useReviewCounts } from '../../../../src/features/admin/use-pending-posts';
import { makePost, signInAsAdmin, signInAsMember, storePosts } from '../../factories';

afterEach(cleanup);

describe('useReviewCounts', () => {
  it('counts pending posts for an admin; once the session is a member’s, a re-run gives nothing instead of throwing', async () => {
    await storePosts(makePost({ id: 1, status: 'pending' }));
    signInAsAdmin();
    const counts = renderHook(() => useReviewCounts(true));
    const pending = renderHook(() => usePendingCount());
    await waitFor(() => expect(counts.result.current).toEqual({ pending: 1, flagged: 0 }));
    await waitFor(() => expect(pending.result.current).toBe(1));
    signInAsMember();
    await storePosts(makePost({ id: 2, status: 'pending' }));
    await waitFor(() => expect(counts.result.current).toBeUndefined());
    await waitFor(() => expect(pending.result.current).toBeUndefined());
  });
});
