// @vitest-environment happy-dom
// The Groups tab (issue 61, item 1): New group with "Group name" and "Description" (checked here by
// the server's rules before anything is queued), each group with its members (Remove) and Add member
// with "Find a member" (the server's answer; members already in the group are not offered again), and
// local-only's sentence. The groups shown are this device's pulled copy (IndexedDB).
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { db } from '../../../../src/db/storage/schema';
import type { AdminMember } from '../../../../src/shared/protocol';

const mode = vi.hoisted(() => ({ value: 'connected' as 'connected' | 'local' }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => mode.value }));
const admin = vi.hoisted(() => ({ findMembers: vi.fn() }));
vi.mock('../../../../src/sync/admin', () => admin);
const ops = vi.hoisted(() => ({ createGroup: vi.fn(), editGroup: vi.fn(), addGroupMember: vi.fn(), removeGroupMember: vi.fn() }));
vi.mock('../../../../src/db/groups/groups', async (original) => ({ ...(await original<object>()), ...ops }));

const { GroupsPanel } = await import('../../../../src/features/admin/groups-panel');

const VENDORS = '0d000000-0000-4000-8000-0000000000d1';
const member = (id: string, name: string): AdminMember => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  role: 'user',
  joinedAt: 1,
  suspendedUntil: null,
  suspended: false,
  suspendReason: null,
  silenced: false,
  silenceReason: null,
  silencedUntil: null,
  closed: false,
  posts: 0,
  replies: 0,
  flagsRaised: 0,
});

beforeEach(async () => {
  mode.value = 'connected';
  await db.groups.put({
    id: VENDORS,
    name: 'Panel vendors',
    description: 'Who runs the panels.',
    createdAt: 1,
    updatedAt: 1,
    member: 0,
    seq: 1,
  });
  await db.groupMembers.put({ groupId: VENDORS, memberId: 'a1a1a1a1a1a1a1a1', name: 'Alice', seq: 1 });
});
afterEach(async () => {
  cleanup();
  vi.clearAllMocks();
  await db.groups.clear();
  await db.groupMembers.clear();
});

function show() {
  const toast = vi.fn();
  render(
    <ToastContext.Provider value={toast}>
      <GroupsPanel />
    </ToastContext.Provider>,
  );
  return toast;
}

describe('the Groups tab', () => {
  it('lists each group with its description and members; Remove takes one out', async () => {
    show();
    const card = within((await screen.findByRole('heading', { name: 'Panel vendors' })).closest('article')!);
    expect(card.getByText('Who runs the panels.')).toBeTruthy();
    expect(await card.findByText('1 member')).toBeTruthy();
    const members = within(card.getByRole('list', { name: 'Members of Panel vendors' }));
    expect(members.getByText('Alice')).toBeTruthy();
    fireEvent.click(members.getByRole('button', { name: 'Remove Alice from Panel vendors' }));
    await waitFor(() => expect(ops.removeGroupMember).toHaveBeenCalledWith(VENDORS, 'a1a1a1a1a1a1a1a1'));
    // The row pressed leaves: the focus stays in the card, on its Add member.
    await waitFor(() => expect(document.activeElement).toBe(card.getByRole('button', { name: 'Add member to Panel vendors' })));
  });

  it('New group creates one from "Group name" and "Description"; a staff word is refused before anything is sent', async () => {
    const toast = show();
    fireEvent.click(await screen.findByRole('button', { name: 'New group' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New group' }));
    fireEvent.change(dialog.getByLabelText('Group name'), { target: { value: 'Moderator team' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create group' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ variant: 'error', title: 'Group name cannot be used' })),
    );
    expect(ops.createGroup).not.toHaveBeenCalled();
    fireEvent.change(dialog.getByLabelText('Group name'), { target: { value: 'Agency leads' } });
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'Leads of agencies.' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(ops.createGroup).toHaveBeenCalledWith('Agency leads', 'Leads of agencies.'));
    await waitFor(() => expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Group created', variant: 'success' })));
  });

  it('Edit changes the name and description', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Panel vendors' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit group' }));
    expect((dialog.getByLabelText('Group name') as HTMLInputElement).value).toBe('Panel vendors');
    fireEvent.change(dialog.getByLabelText('Group name'), { target: { value: 'Panel partners' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(ops.editGroup).toHaveBeenCalledWith(VENDORS, 'Panel partners', 'Who runs the panels.'));
  });

  it('Add member finds members by name or email and adds one; a member already in the group is not offered', async () => {
    admin.findMembers.mockResolvedValue([member('a1a1a1a1a1a1a1a1', 'Alice'), member('b0b0b0b0b0b0b0b0', 'Bob')]);
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add member to Panel vendors' }));
    fireEvent.change(screen.getByLabelText('Find a member'), { target: { value: 'example.com' } });
    const found = within(await screen.findByRole('list', { name: 'Members found for Panel vendors' }));
    expect(admin.findMembers).toHaveBeenCalledWith('example.com');
    expect(found.getByText('In the group')).toBeTruthy();
    expect(found.queryByRole('button', { name: 'Add Alice' })).toBeNull();
    // Pressed as a browser does: the focus on it (the search's autoFocus had it before).
    found.getByRole('button', { name: 'Add Bob' }).focus();
    fireEvent.click(found.getByRole('button', { name: 'Add Bob' }));
    await waitFor(() => expect(ops.addGroupMember).toHaveBeenCalledWith(VENDORS, 'b0b0b0b0b0b0b0b0'));
    // Its button goes (Bob is in the group now): the focus is back in the search, not on the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Find a member')));
  });

  it('on a local-only device says groups need the server', async () => {
    mode.value = 'local';
    show();
    expect(await screen.findByText('Groups and categories need the server')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New group' })).toBeNull();
  });
});
