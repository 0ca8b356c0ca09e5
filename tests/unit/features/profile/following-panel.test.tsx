// @vitest-environment happy-dom
// Profile's "Following" (issue 62): every category with the member's level (Normal when none is
// set), the tags they set a level on (or a sentence when none), each changeable in place; and
// "Watch what I write", on by default, which sends setAutoWatch.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { signInAsMember } from '../../factories';

const runOperation = vi.hoisted(() => vi.fn(async () => ({})));
vi.mock('../../../../src/db/ops/run-later', () => ({ runOperation }));

const { FollowingPanel } = await import('../../../../src/features/profile/following-panel');

afterEach(() => {
  cleanup();
  runOperation.mockClear();
});

const panel = () => within(screen.getByRole('region', { name: 'Following' }));

describe('FollowingPanel', () => {
  it('shows every category at Normal, no tags (said so) and the switch on, before any level is set', async () => {
    signInAsMember();
    render(<FollowingPanel />);
    const categories = within(panel().getByRole('list', { name: 'Categories' }));
    expect(categories.getAllByRole('combobox').length).toBeGreaterThan(0);
    for (const select of categories.getAllByRole('combobox')) expect((select as HTMLSelectElement).value).toBe('normal');
    expect(panel().getByText(/No tags followed yet/)).toBeTruthy();
    expect((panel().getByRole('switch', { name: 'Watch what I write' }) as HTMLInputElement).checked).toBe(true);
  });

  it('lists the levels set, and a change is the follow operation', async () => {
    const member = signInAsMember();
    const categoryId = (await import('../../../../src/db/types')).CATEGORIES[0]!;
    await db.follows.bulkPut([
      { email: member.email, kind: 'category', target: categoryId, level: 'muted', at: 1 },
      { email: member.email, kind: 'tag', target: 'nps', level: 'watching', at: 2 },
    ]);
    render(<FollowingPanel />);
    const tag = await panel().findByRole('combobox', { name: '#nps' });
    expect((tag as HTMLSelectElement).value).toBe('watching');
    await waitFor(() => expect((panel().getByRole('combobox', { name: categoryId }) as HTMLSelectElement).value).toBe('muted'));
    fireEvent.change(tag, { target: { value: 'muted' } });
    await waitFor(() => expect(runOperation).toHaveBeenCalledWith('follow', { kind: 'tag', target: 'nps', level: 'muted' }));
  });

  it('turning "Watch what I write" off sends setAutoWatch', async () => {
    signInAsMember();
    render(<FollowingPanel />);
    fireEvent.click(panel().getByRole('switch', { name: 'Watch what I write' }));
    await waitFor(() => expect(runOperation).toHaveBeenCalledWith('setAutoWatch', { on: false }));
  });
});
