// @vitest-environment happy-dom
// /login's passkey button and two-step code step load their code only where they show (issue 64,
// item 2). A load that fails (the network gone before the service worker held the file) must not
// take /login to the error screen: the passkey button is left out and the password form stays; the
// code step says the server could not be reached, with the way back to the password.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../../src/features/auth/auth-context';
import { signedOutAuth } from '../../auth-value';
import { LoginForm } from '../../../../src/features/auth/login-form';
import { ToastContext } from '../../../../src/components/toast/toast-context';

const tries = vi.hoisted(() => ({ passkey: 0, twoStep: 0 }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
// What the form loads ahead of a press (the API client) asks no server here.
vi.mock('../../../../src/sync/auth', () => ({ prepareSignIn: () => Promise.resolve() }));
vi.mock('../../../../src/features/auth/passkey-sign-in', () => {
  tries.passkey += 1;
  throw new TypeError('Failed to fetch dynamically imported module');
});
vi.mock('../../../../src/features/auth/two-step-form', () => {
  tries.twoStep += 1;
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => cleanup());

function renderLogin(entry: string) {
  const auth = signedOutAuth();
  render(
    <MemoryRouter initialEntries={[entry]}>
      <ToastContext.Provider value={vi.fn()}>
        <AuthContext.Provider value={auth}>
          <LoginForm />
        </AuthContext.Provider>
      </ToastContext.Provider>
    </MemoryRouter>,
  );
}

/** Waits for the same failed import the component waits on: once it has settled, React has shown its outcome. */
const settled = (load: () => Promise<unknown>) =>
  act(() =>
    load().then(
      () => undefined,
      () => undefined,
    ),
  );

describe('/login’s parts whose code cannot load', () => {
  it('the passkey button is left out; the password form stays', async () => {
    renderLogin('/login');
    await settled(() => import('../../../../src/features/auth/passkey-sign-in'));
    expect(tries.passkey).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /passkey/i })).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('the code step says the server could not be reached; Back to sign in shows the password form', async () => {
    renderLogin('/login?step=code');
    const alert = await screen.findByRole('alert');
    expect(tries.twoStep).toBeGreaterThan(0);
    expect(alert.textContent).toBe("You're offline. The server could not be reached.");
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByLabelText('Password')).toBeTruthy();
  });
});
