// @vitest-environment happy-dom
// /login's single sign-on states (issue 63): the button with the provider's label (offline: the
// sentence, no navigation), the provider's return (done: the session taken, then home; name: the
// offered name prefilled, Continue; link: the sentence above the password form; error: the code's
// sentence), and OIDC_ONLY (no password form for members: "Admin sign-in" shows it).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { SsoSignIn } from '../../../../src/features/auth/sso-sign-in';
import { DataError } from '../../../../src/db/storage/errors';
import { ERRORS } from '../../../../src/shared/errors';
import type { AuthMethods } from '../../../../src/shared/sign-in';

// The device's mode, which a test can change while /login is open (it is known only after a moment).
const mode = vi.hoisted(() => ({ current: 'connected' as 'connected' | 'local' | undefined, listeners: new Set<() => void>() }));
vi.mock('../../../../src/hooks/use-mode', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    mode.listeners.add(listener);
    return () => void mode.listeners.delete(listener);
  };
  return { useMode: () => useSyncExternalStore(subscribe, () => mode.current) };
});
const sso = vi.hoisted(() => ({
  readAuthMethods: vi.fn(),
  startOrganisationSignIn: vi.fn(),
  takeSsoSession: vi.fn(),
  readSsoPending: vi.fn(),
  finishSsoName: vi.fn(),
}));
vi.mock('../../../../src/sync/sso', () => sso);

const METHODS: AuthMethods = { sso: { label: 'Acme' }, ssoOnly: false, passkeys: true };
let assign: ReturnType<typeof vi.fn>;

beforeEach(() => {
  mode.current = 'connected';
  sso.readAuthMethods.mockResolvedValue(METHODS);
  // The server reachable: the browser leaves (src/sync/sso.ts; its offline rule is tested in tests/unit/sync/sign-in-offline.test.ts).
  sso.startOrganisationSignIn.mockReset();
  sso.startOrganisationSignIn.mockImplementation((returnTo: string, _api: unknown, go: (url: string) => void) => {
    go(`/api/oidc/start?return=${encodeURIComponent(returnTo)}`);
    return Promise.resolve();
  });
  assign = vi.fn();
  Object.defineProperty(window, 'location', { value: { ...window.location, assign }, configurable: true });
});
afterEach(() => cleanup());

function renderAt(url: string) {
  const toast = vi.fn();
  render(
    <MemoryRouter initialEntries={[url]}>
      <ToastContext.Provider value={toast}>
        <Routes>
          <Route
            path="/login"
            element={
              <SsoSignIn>
                {(noSignUp) => (
                  <form aria-label={noSignUp ? 'Password only' : 'Password'}>
                    <input aria-label="Email" />
                  </form>
                )}
              </SsoSignIn>
            }
          />
          <Route path="/" element={<h1>Home</h1>} />
          <Route path="/posts/:id" element={<h1>A post</h1>} />
        </Routes>
      </ToastContext.Provider>
    </MemoryRouter>,
  );
  return toast;
}

describe('SsoSignIn', () => {
  it('offers "Sign in with {label}" above the password form, and goes to the provider', async () => {
    renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/oidc/start?return=%2F'));
    expect(screen.getByRole('form', { name: 'Password' })).toBeTruthy();
  });

  it('keeps what was typed in the password form while the mode and the ways of signing in become known', async () => {
    mode.current = undefined;
    renderAt('/login');
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: 'ann@example.org' } });
    act(() => {
      mode.current = 'connected';
      mode.listeners.forEach((listener) => listener());
    });
    expect(await screen.findByRole('button', { name: 'Sign in with Acme' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('ann@example.org');
  });

  it('offline, says that signing in with the organisation needs the network, and stays', async () => {
    sso.startOrganisationSignIn.mockRejectedValue(new DataError('offline_sso'));
    renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ERRORS.offline_sso.message);
    expect(assign).not.toHaveBeenCalled();
  });

  it('back signed in (sso=done): takes the session and goes where the sign-in began', async () => {
    sso.takeSsoSession.mockResolvedValue({ email: 'ann@example.org', name: 'Ann', role: 'user' });
    const toast = renderAt('/login?sso=done&return=%2Fposts%2F7');
    expect(await screen.findByRole('heading', { name: 'A post' })).toBeTruthy();
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Success' }));
  });

  it('a first sign-in whose name is taken (sso=name): the offered name, to keep or change', async () => {
    sso.readSsoPending.mockResolvedValue({ kind: 'name', email: 'bob@example.org', suggestedName: 'Bob Baker 2' });
    sso.finishSsoName
      .mockRejectedValueOnce(new DataError('name_taken'))
      .mockResolvedValueOnce({ email: 'bob@example.org', name: 'Bobby', role: 'user' });
    renderAt('/login?sso=name');
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Bob Baker 2'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(sso.finishSsoName).toHaveBeenLastCalledWith('Bob Baker 2');
    fireEvent.change(name, { target: { value: 'Bobby' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(sso.finishSsoName).toHaveBeenLastCalledWith('Bobby');
  });

  it('an account with this email (sso=link): the sentence above the password form, no provider button', async () => {
    renderAt('/login?sso=link');
    expect((await screen.findByRole('status')).textContent).toContain(ERRORS.sso_link_needed.message);
    expect(screen.getByRole('form', { name: 'Password' })).toBeTruthy();
    await waitFor(() => expect(sso.readAuthMethods).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: 'Sign in with Acme' })).toBeNull();
  });

  it('a refused sign-in (sso=error): the code’s sentence', async () => {
    renderAt('/login?sso=error&code=sso_email_unverified');
    expect((await screen.findByRole('alert')).textContent).toContain(ERRORS.sso_email_unverified.message);
  });

  it('OIDC_ONLY: no password form for members; "Admin sign-in" shows it, without Create Account', async () => {
    sso.readAuthMethods.mockResolvedValue({ ...METHODS, ssoOnly: true });
    renderAt('/login');
    const admin = await screen.findByRole('button', { name: 'Admin sign-in' });
    expect(screen.queryByRole('form')).toBeNull();
    fireEvent.click(admin);
    expect(screen.getByRole('form', { name: 'Password only' })).toBeTruthy();
  });
});
