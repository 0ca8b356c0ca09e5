// @vitest-environment happy-dom
// The race CI met: the session is an admin's when the Admin link's counts start, and a member's by
// the time the second count asks (the server's answer landed between the two reads). The counts give
// nothing; nothing is thrown into the screen.
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../../src/db/types';
import type * as SessionModule from '../../../../src/db/members/session';

const answers: (Session | null)[] = [];
vi.mock('../../../../src/db/members/session', async (original) => {
  const actual = await original<typeof SessionModule>();
  return { ...actual, readStoredSession: () => answers.shift() ?? { email: 'member@example.com', name: 'Member', role: 'user' } };
});

const { useReviewCounts } = await import('../../../../src/features/admin/use-pending-posts');

afterEach(cleanup);

describe('useReviewCounts when the role changes between its reads', () => {
  it('gives nothing instead of throwing admins_only into the render', async () => {
    answers.push({ email: 'admin@insightexchange.app', name: 'Admin', role: 'admin' });
    const errors: unknown[] = [];
    const { result } = renderHook(() => {
      try {
        return useReviewCounts(true);
      } catch (error) {
        errors.push(error);
        throw error;
      }
    });
    await waitFor(() => expect(answers).toHaveLength(0));
    // Settled: no error reached the render, and the counts are empty.
    await waitFor(() => expect(result.current).toBeUndefined());
    expect(errors).toEqual([]);
  });
});
