// @vitest-environment happy-dom
// A silenced member is not offered New Post (issue 59, item 7): the header shows it only with a way to open it.
// Log out says it is sending the member's changes while it does (issue 59, item 1).
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppShell } from '../../../../src/components/layouts/app-shell';

afterEach(cleanup);

const shell = (onNewPost?: () => void, loggingOut = false) =>
  render(
    <MemoryRouter>
      <AppShell isAdmin={false} onNewPost={onNewPost} onNewPostIntent={() => undefined} onLogout={() => undefined} loggingOut={loggingOut}>
        <p>Page</p>
      </AppShell>
    </MemoryRouter>,
  );

describe('the header’s New Post', () => {
  it('is offered to a member who may write (phone and wide layouts)', () => {
    shell(() => undefined);
    expect(screen.getAllByRole('button', { name: 'New Post' })).toHaveLength(2);
  });

  it('is not offered while the member is silenced', () => {
    shell(undefined);
    expect(screen.queryAllByRole('button', { name: 'New Post' })).toHaveLength(0);
  });
});

describe('Log out while it sends the queued changes (issue 59, item 1)', () => {
  it('is an icon button named Log out', () => {
    shell(() => undefined);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Log out' });
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('waits, busy, and says it is sending the changes first', () => {
    shell(() => undefined, true);
    const button = screen.getByRole<HTMLButtonElement>('button', {
      name: 'Log out',
      description: 'Sending your changes before you log out…',
    });
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Sending your changes before you log out…');
  });
});
