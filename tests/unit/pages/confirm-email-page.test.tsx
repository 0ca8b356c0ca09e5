// @vitest-environment happy-dom
// A sign-up's emailed link (issue 59): its page sends nothing on opening (a mail scanner, or the owner
// of an address someone else signed up with, makes no account), only the password typed there when
// "Finish creating account" is pressed; an address's link is still used on opening.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmEmailPage, LINK_CHECK_WAIT_MS, ResetPasswordPage } from '../../../src/pages/account-links';
import { DataError } from '../../../src/db/storage/errors';
import { ToastContext } from '../../../src/components/toast/toast-context';
import { SIGN_UP_PASSWORD_NOTE, SIGN_UP_PASSWORD_WRONG_MESSAGE } from '../../../src/shared/errors';

vi.mock('../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
const confirmEmail = vi.hoisted(() => vi.fn());
const linkWorks = vi.hoisted(() => vi.fn(async (_token: string) => true));
const resetPassword = vi.hoisted(() => vi.fn());
vi.mock('../../../src/sync/account', () => ({ confirmEmail, linkWorks, resetPassword }));

afterEach(() => {
  cleanup();
  confirmEmail.mockReset();
  resetPassword.mockReset();
  linkWorks.mockClear();
});

const SIGN_UP = `signup-${'a'.repeat(43)}`;

/** A link's page at `/<page>?token=`, as its email opens it. */
const openLink = (page: 'confirm-email' | 'reset-password', token: string) =>
  render(
    <MemoryRouter initialEntries={[`/${page}?token=${token}`]}>
      <ToastContext.Provider value={vi.fn()}>
        {page === 'confirm-email' ? <ConfirmEmailPage /> : <ResetPasswordPage />}
      </ToastContext.Provider>
    </MemoryRouter>,
  );
const open = (token: string) => openLink('confirm-email', token);
const openReset = (token: string) => openLink('reset-password', token);

const finish = () => fireEvent.click(screen.getByRole('button', { name: 'Finish creating account' }));
const type = (password: string) => fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });

describe('ConfirmEmailPage, a sign-up’s link', () => {
  it('sends nothing on opening; the button sends the token with the password typed', async () => {
    confirmEmail.mockResolvedValue('Your email is confirmed and your account is ready. Welcome!');
    open(SIGN_UP);
    expect(screen.getByRole('heading', { name: 'Confirm email' })).toBeTruthy();
    expect(await screen.findByText(SIGN_UP_PASSWORD_NOTE)).toBeTruthy();
    // A moment for an effect that would post (the page before issue 59's fix did).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(confirmEmail).not.toHaveBeenCalled();
    type('quiet-harbor-7419');
    finish();
    expect(await screen.findByText('Your email is confirmed and your account is ready. Welcome!')).toBeTruthy();
    expect(confirmEmail).toHaveBeenCalledExactlyOnceWith(SIGN_UP, { password: 'quiet-harbor-7419' });
  });

  it('a wrong password is said on the field, and the form stays to try again', async () => {
    confirmEmail.mockRejectedValueOnce(new DataError('wrong_password', { message: SIGN_UP_PASSWORD_WRONG_MESSAGE }));
    open(SIGN_UP);
    await screen.findByText(SIGN_UP_PASSWORD_NOTE);
    type('not-my-passphrase');
    finish();
    const field = screen.getByLabelText('Password');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(SIGN_UP_PASSWORD_WRONG_MESSAGE);
    expect(screen.getByRole('button', { name: 'Finish creating account' })).toBeTruthy();
  });
});

describe('ConfirmEmailPage, an address’s link', () => {
  it('is used on opening, with no password', async () => {
    confirmEmail.mockResolvedValue('Your email is confirmed.');
    open('b'.repeat(43));
    expect(await screen.findByText('Your email is confirmed.')).toBeTruthy();
    expect(confirmEmail).toHaveBeenCalledExactlyOnceWith('b'.repeat(43));
    expect(screen.queryByRole('button', { name: 'Finish creating account' })).toBeNull();
  });
});

describe('a link already used or expired says so on opening, before a password is typed (the check uses nothing up)', () => {
  it('a sign-up’s link', async () => {
    linkWorks.mockResolvedValueOnce(false);
    open(SIGN_UP);
    expect(await screen.findByText('This link has expired or was already used. Ask for a new one.')).toBeTruthy();
    expect(linkWorks).toHaveBeenCalledExactlyOnceWith(SIGN_UP);
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(confirmEmail).not.toHaveBeenCalled();
  });

  it('a reset link; one that works shows its form, and a failed check (offline) shows the form too', async () => {
    linkWorks.mockResolvedValueOnce(false);
    const first = openReset('r'.repeat(43));
    expect(await screen.findByText(/This link has expired or was already used/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send a new reset link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set password' })).toBeNull();
    first.unmount();

    for (const check of [async () => true, async () => Promise.reject(new DataError('offline'))]) {
      linkWorks.mockImplementationOnce(check);
      const view = openReset('s'.repeat(43));
      expect(await screen.findByRole('button', { name: 'Set password' })).toBeTruthy();
      expect(screen.queryByText(/This link has expired/)).toBeNull();
      view.unmount();
    }
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('a check that hangs (a network that never answers) shows the form after LINK_CHECK_WAIT_MS, as a failed one does', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      linkWorks.mockImplementationOnce(() => new Promise<boolean>(() => undefined));
      openReset('h'.repeat(43));
      expect(screen.getByText('Checking the link…')).toBeTruthy();
      await act(async () => {
        vi.advanceTimersByTime(LINK_CHECK_WAIT_MS - 1);
      });
      expect(screen.queryByRole('button', { name: 'Set password' })).toBeNull();
      await act(async () => {
        vi.advanceTimersByTime(1);
      });
      expect(screen.getByRole('button', { name: 'Set password' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
