// @vitest-environment happy-dom
// A member's card in the Members tab (an admin's trial): the buttons are off while one runs, and the
// one pressed gets the focus back after (Unsilence left it on the page); a sample post's author, whom
// nobody signs in as, is offered no reset link (the server answered "Member not found").
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminMember } from '../../../../src/shared/protocol';

const sending = vi.hoisted(() => ({ finish: (): void => undefined }));
const members = vi.hoisted(() => ({
  silenceMember: vi.fn(() => new Promise<void>((resolve) => (sending.finish = resolve))),
  liftSuspension: vi.fn(),
  deleteSpammer: vi.fn(),
}));
vi.mock('../../../../src/db/moderation/members', () => members);
vi.mock('../../../../src/sync/admin', () => ({ readMember: vi.fn(() => new Promise(() => undefined)) }));

const { MemberCard } = await import('../../../../src/features/admin/member-card');

afterEach(cleanup);

const member = (overrides: Partial<AdminMember> = {}): AdminMember => ({
  id: 'b0b0b0b0b0b0b0b0',
  name: 'Bob',
  email: 'bob@example.com',
  role: 'user',
  joinedAt: 1,
  suspendedUntil: null,
  suspended: false,
  suspendReason: null,
  silenced: true,
  silenceReason: 'Spam',
  silencedUntil: null,
  closed: false,
  posts: 0,
  replies: 0,
  flagsRaised: 0,
  ...overrides,
});

const show = (row: AdminMember) =>
  render(
    <MemoryRouter>
      <MemberCard member={row} refresh={0} />
    </MemoryRouter>,
  );

describe('a member’s card', () => {
  it('Unsilence keeps the focus on its button once the buttons are on again', async () => {
    show(member());
    const unsilence = screen.getByRole('button', { name: 'Unsilence' });
    unsilence.focus();
    fireEvent.click(unsilence);
    await waitFor(() => expect(members.silenceMember).toHaveBeenCalledWith('b0b0b0b0b0b0b0b0', false));
    await waitFor(() => expect(unsilence.hasAttribute('disabled')).toBe(true));
    // What a browser does to a focused button turned off (happy-dom does not): the focus leaves it for the page.
    unsilence.removeAttribute('disabled');
    unsilence.blur();
    unsilence.setAttribute('disabled', '');
    expect(document.activeElement).toBe(document.body);
    sending.finish();
    await waitFor(() => expect(unsilence.hasAttribute('disabled')).toBe(false));
    expect(document.activeElement).toBe(unsilence);
  });

  it('offers reset links to a member, none to a sample post’s author', () => {
    show(member());
    expect(screen.getByRole('button', { name: 'Copy reset link' })).toBeTruthy();
    cleanup();
    show(member({ joinedAt: null, name: 'Tom Okafor' }));
    expect(screen.queryByRole('button', { name: 'Copy reset link' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Email reset link' })).toBeNull();
  });
});
