// @vitest-environment happy-dom
// Sign In's code step (issue 63): a right password of an account with two-step verification is no
// error but the field "Code" and the button "Verify"; the link "Use a recovery code" switches the
// field to "Recovery code" and back; a right code signs in and goes on, a wrong one stays (a toast),
// an expired step goes back to the password; /login?step=code (after single sign-on) opens it directly.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthValue } from '../../../../src/features/auth/auth-context';
import { signedOutAuth } from '../../auth-value';
import { LoginForm } from '../../../../src/features/auth/login-form';
import { DataError } from '../../../../src/db/storage/errors';
import { ToastContext } from '../../../../src/components/toast/toast-context';

const verifyTwoStep = vi.fn();
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
vi.mock('../../../../src/sync/two-step', () => ({ verifyTwoStep: (...args: unknown[]) => verifyTwoStep(...args) }));

beforeEach(() => verifyTwoStep.mockReset());
afterEach(() => cleanup());

function renderLogin(entry = '/login', login: AuthValue['login'] = vi.fn().mockRejectedValue(new DataError('two_step_needed'))) {
  const auth = signedOutAuth({ login });
  const toast = vi.fn();
  render(
    <MemoryRouter initialEntries={[entry]}>
      <ToastContext.Provider value={toast}>
        <AuthContext.Provider value={auth}>
          <Routes>
            <Route path="/login" element={<LoginForm />} />
            <Route path="/" element={<p>Home page</p>} />
          </Routes>
        </AuthContext.Provider>
      </ToastContext.Provider>
    </MemoryRouter>,
  );
  return { toast, login };
}

async function passwordStep() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nadia@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'quiet-harbor-7419' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  return screen.findByLabelText('Code');
}

describe('LoginForm, two-step verification’s code step', () => {
  it('a right password asks for a code (no error toast); the right code signs in and goes home', async () => {
    const { toast, login } = renderLogin();
    const field = await passwordStep();
    expect(login).toHaveBeenCalledWith('nadia@example.com', 'quiet-harbor-7419');
    expect(toast).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Password')).toBeNull();
    verifyTwoStep.mockResolvedValue({ email: 'nadia@example.com', name: 'Nadia', role: 'user' });
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(verifyTwoStep).toHaveBeenCalledWith({ code: '123456' });
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Success' }));
  });

  it('"Use a recovery code" switches the field to "Recovery code" and back; a recovery code is sent as one', async () => {
    renderLogin();
    await passwordStep();
    fireEvent.click(screen.getByRole('link', { name: 'Use a recovery code' }));
    const field = await screen.findByLabelText('Recovery code');
    expect(screen.queryByLabelText('Code')).toBeNull();
    verifyTwoStep.mockResolvedValue({ email: 'nadia@example.com', name: 'Nadia', role: 'user' });
    fireEvent.change(field, { target: { value: 'abcd-efgh' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('Home page');
    expect(verifyTwoStep).toHaveBeenCalledWith({ recoveryCode: 'abcd-efgh' });
  });

  it('the link back to the app’s code, and a code that is not six digits is said on the field without a request', async () => {
    renderLogin('/login?step=code&use=recovery');
    fireEvent.click(await screen.findByRole('link', { name: 'Use a code from your app' }));
    const field = await screen.findByLabelText('Code');
    fireEvent.change(field, { target: { value: '12ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    expect(verifyTwoStep).not.toHaveBeenCalled();
  });

  it('a wrong code stays on the step with the server’s sentence; an expired step goes back to the password', async () => {
    const { toast } = renderLogin('/login?step=code');
    verifyTwoStep.mockRejectedValueOnce(new DataError('bad_code', { status: 401 }));
    fireEvent.change(await screen.findByLabelText('Code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Wrong code' })));
    expect(screen.getByLabelText('Code')).toBeTruthy();

    verifyTwoStep.mockRejectedValueOnce(new DataError('two_step_expired', { status: 401 }));
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Sign in again' }));
  });
});
