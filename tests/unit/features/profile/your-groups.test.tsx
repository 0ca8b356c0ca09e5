// @vitest-environment happy-dom
// Profile's "Your groups" (issue 61): the groups the member is in, from this device's pulled copy
// (a group an admin device holds without being in it is not theirs), and local-only's sentence.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';

const mode = vi.hoisted(() => ({ value: 'connected' as 'connected' | 'local' }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => mode.value }));

const { YourGroups } = await import('../../../../src/features/profile/your-groups');

afterEach(async () => {
  cleanup();
  await db.groups.clear();
});

describe('Your groups', () => {
  it('lists the groups the member is in, by name, with their descriptions', async () => {
    mode.value = 'connected';
    await db.groups.bulkPut([
      { id: 'g2', name: 'Panel vendors', description: 'Who runs the panels.', createdAt: 1, updatedAt: 1, member: 1, seq: 2 },
      { id: 'g1', name: 'Agency leads', description: '', createdAt: 1, updatedAt: 1, member: 1, seq: 1 },
      { id: 'g3', name: 'Client team', description: '', createdAt: 1, updatedAt: 1, member: 0, seq: 3 },
    ]);
    render(<YourGroups />);
    const section = within(screen.getByRole('region', { name: 'Your groups' }));
    const list = await section.findByRole('list', { name: 'Your groups' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Agency leads', 'Panel vendorsWho runs the panels.']);
  });

  it('says so when the member is in no group, and that local-only has none', async () => {
    mode.value = 'connected';
    const { unmount } = render(<YourGroups />);
    expect(await screen.findByText(/You are in no group yet/)).toBeTruthy();
    unmount();
    mode.value = 'local';
    render(<YourGroups />);
    expect(await screen.findByText(/Groups need the forum’s server/)).toBeTruthy();
  });
});
