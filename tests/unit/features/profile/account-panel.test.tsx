// @vitest-environment happy-dom
// Profile's account sections for an account made by the organisation's sign-in (issue 63), which has
// no password: "Password" says there is none, "Email" says the address is the organisation's and
// offers no change, and Delete my account asks for a fresh sign-in ("Sign in again with {label}",
// back to Profile with the form open) instead of a password; within ten minutes of one it deletes
// with no password. A password account keeps its password fields. The server is this test's: a
// `fetch` that answers the account routes as the server does, and records what was sent.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import type { Account } from '../../../../src/shared/account';
import { ERRORS } from '../../../../src/shared/errors';
import {
  AccountPanels,
  DELETE_RETURN,
  DELETE_SIGN_IN_AGAIN,
  DELETE_SIGNED_IN_RECENTLY,
  NO_PASSWORD_NOTE,
  ORGANISATION_EMAIL_NOTE,
} from '../../../../src/features/profile/account-panel';

const sso = vi.hoisted(() => ({ startOrganisationSignIn: vi.fn() }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
vi.mock('../../../../src/sync/sso', () => sso);

const DELETED = 'Your account was deleted, and every device signed out.';

/** The server: GET /api/account answers `mine`; POST /api/account/delete answers `deleteAnswer`. */
function serve(mine: Account, deleteAnswer: { status: number; body: unknown } = { status: 200, body: { message: DELETED } }) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(input);
    sent.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET' && path === '/api/account') return json(200, mine);
    if (method === 'GET' && path === '/api/account/devices') return json(200, { devices: [] });
    if (method === 'POST' && path === '/api/account/delete') return json(deleteAnswer.status, deleteAnswer.body);
    return json(404, { error: { code: 'no_route', message: ERRORS.no_route.message } });
  });
  return { deletes: () => sent.filter((request) => request.path === '/api/account/delete').map((request) => request.body) };
}

const account = (more: Partial<Account>): Account => ({ email: 'dee@northwind.example', emailVerified: true, emailPref: 'away', ...more });

const toast = vi.fn();
const onDeleted = vi.fn(async () => undefined);
function renderPanels() {
  render(
    <ToastContext.Provider value={toast}>
      <AccountPanels admin={false} onDeleted={onDeleted} />
    </ToastContext.Provider>,
  );
}
const region = (name: string) => within(screen.getByRole('region', { name }));

beforeEach(() => {
  for (const fn of [sso.startOrganisationSignIn, toast, onDeleted]) fn.mockReset();
  localStorage.setItem('insightExchangeAuthMethods', JSON.stringify({ sso: { label: 'Northwind' }, ssoOnly: false, passkeys: true }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('Profile for an account without a password (made by the organisation’s sign-in)', () => {
  it('Password and Email say so and offer no form; Delete asks to sign in again with the organisation, which comes back here', async () => {
    const server = serve(account({ hasPassword: false, recentSignIn: false }));
    sso.startOrganisationSignIn.mockResolvedValue(undefined);
    renderPanels();
    expect(await region('Email').findByText(ORGANISATION_EMAIL_NOTE('Northwind'))).toBeTruthy();
    expect(region('Email').queryByRole('button', { name: 'Change email' })).toBeNull();
    expect(region('Email').queryByLabelText('New email')).toBeNull();
    expect(await region('Password').findByText(NO_PASSWORD_NOTE('Northwind'))).toBeTruthy();
    expect(region('Password').queryByLabelText('Current password')).toBeNull();

    fireEvent.click(region('Your data').getByRole('button', { name: 'Delete my account' }));
    const form = within(await screen.findByRole('form', { name: 'Delete my account' }));
    expect((await form.findByText(DELETE_SIGN_IN_AGAIN('Northwind'))).getAttribute('role')).toBe('status');
    expect(form.queryByLabelText('Password')).toBeNull();
    // No way to delete yet: only the sign-in that confirms it.
    expect(form.queryByRole('button', { name: 'Delete my account' })).toBeNull();
    fireEvent.click(await form.findByRole('button', { name: 'Sign in again with Northwind' }));
    await waitFor(() => expect(sso.startOrganisationSignIn).toHaveBeenCalledExactlyOnceWith(DELETE_RETURN, undefined, undefined, true));
    expect(DELETE_RETURN).toBe('/profile?delete=confirm');
    expect(server.deletes()).toEqual([]);
  });

  it('back from the sign-in (within ten minutes): the form is open and deletes with no password', async () => {
    window.history.replaceState(null, '', DELETE_RETURN);
    const server = serve(account({ hasPassword: false, recentSignIn: true }));
    renderPanels();
    const form = within(await screen.findByRole('form', { name: 'Delete my account' }));
    await form.findByText(DELETE_SIGNED_IN_RECENTLY);
    expect(form.queryByLabelText('Password')).toBeNull();
    fireEvent.click(form.getByLabelText('Remove my posts and replies'));
    fireEvent.click(form.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(server.deletes()).toEqual([{ keepContent: false }]);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Account deleted', description: DELETED }));
  });

  it('the server’s refusal (the ten minutes ran out meanwhile) is said in its own words', async () => {
    window.history.replaceState(null, '', DELETE_RETURN);
    serve(account({ hasPassword: false, recentSignIn: true }), {
      status: 403,
      body: { error: { code: 'sign_in_again', message: ERRORS.sign_in_again.message } },
    });
    renderPanels();
    const form = within(await screen.findByRole('form', { name: 'Delete my account' }));
    await form.findByText(DELETE_SIGNED_IN_RECENTLY);
    fireEvent.click(form.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: ERRORS.sign_in_again.title, description: ERRORS.sign_in_again.message }),
      ),
    );
    expect(onDeleted).not.toHaveBeenCalled();
  });
});

describe('Profile for a password account', () => {
  it('keeps Change password, Change email and the password of Delete my account, even just after a sign-in', async () => {
    const server = serve(account({ hasPassword: true, recentSignIn: true }));
    renderPanels();
    expect(await region('Email').findByRole('button', { name: 'Change email' })).toBeTruthy();
    expect(region('Password').getByLabelText('Current password')).toBeTruthy();
    fireEvent.click(region('Your data').getByRole('button', { name: 'Delete my account' }));
    const form = within(await screen.findByRole('form', { name: 'Delete my account' }));
    fireEvent.click(form.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ description: 'Enter your password to delete your account.' })),
    );
    expect(server.deletes()).toEqual([]);
    fireEvent.change(form.getByLabelText('Password'), { target: { value: 'my-long-passphrase' } });
    fireEvent.click(form.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(server.deletes()).toEqual([{ password: 'my-long-passphrase', keepContent: true }]);
  });
});
