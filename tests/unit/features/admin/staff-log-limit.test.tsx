// @vitest-environment happy-dom
// A changed limit in the staff log reads as the Limits panel names it, with what it became (an
// admin's trial: "Admin changed the limit seconds_between_posts", and no numbers).
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { Sentence } from '../../../../src/features/admin/staff-log';
import type { StaffLogEntry } from '../../../../src/shared/protocol';

afterEach(cleanup);

const entry = (title: string, detail: Record<string, unknown> | null): StaffLogEntry => ({
  id: 1,
  at: 1,
  action: 'setLimit',
  actor: { id: 'a0a0a0a0a0a0a0a0', name: 'Admin' },
  member: null,
  postId: null,
  replyId: null,
  title,
  reason: null,
  detail,
});

const sentence = (row: StaffLogEntry) =>
  render(
    <MemoryRouter>
      <p>
        <Sentence entry={row} />
      </p>
    </MemoryRouter>,
  ).container.textContent;

describe('a changed limit in the staff log', () => {
  it('is named as on the Limits panel, with its new rule and its first day’s', () => {
    expect(sentence(entry('posts_per_day', { count: 10, seconds: 3600, firstDayCount: 3, firstDaySeconds: 86_400 }))).toBe(
      'Admin changed the limit “New posts” to 10 per hour (first day: 3 per day)',
    );
    expect(sentence(entry('seconds_between_posts', { count: 1, seconds: 120 }))).toBe(
      'Admin changed the limit “Between two new posts” to 1 per 2 minutes',
    );
  });

  it('a limit this build does not know, or an entry without its rule, is still a sentence', () => {
    expect(sentence(entry('future_limit', null))).toBe('Admin changed the limit “future_limit”');
  });
});
