// @vitest-environment happy-dom
// /login's "Sign in with a passkey" loads its code once the device is known to be connected (issue
// 64, item 2). A load that fails (the network gone before the service worker held the file) leaves
// the button out and the password form working, instead of the page's error screen.
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { AuthContext, type AuthValue } from '../../../../src/features/auth/auth-context';
import { LoginForm } from '../../../../src/features/auth/login-form';
import { ToastContext } from '../../../../src/components/toast/toast-context';

const tries = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
vi.mock('../../../../src/features/auth/passkey-sign-in', () => {
  tries.count += 1;
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => cleanup());

it('a passkey button whose code cannot load is left out; the password form stays', async () => {
  const auth = {
    login: vi.fn(),
    signup: vi.fn(),
    logout: vi.fn(),
    user: null,
    loading: false,
    isAuthenticated: false,
  } as unknown as AuthValue;
  render(
    <MemoryRouter initialEntries={['/login']}>
      <ToastContext.Provider value={vi.fn()}>
        <AuthContext.Provider value={auth}>
          <LoginForm />
        </AuthContext.Provider>
      </ToastContext.Provider>
    </MemoryRouter>,
  );
  // The same failed import the lazy button waits on: once it has settled, React has shown its outcome.
  await act(() =>
    import('../../../../src/features/auth/passkey-sign-in').then(
      () => undefined,
      () => undefined,
    ),
  );
  expect(tries.count).toBeGreaterThan(0);
  expect(screen.queryByRole('button', { name: /passkey/i })).toBeNull();
  expect(screen.getByLabelText('Email')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
});
