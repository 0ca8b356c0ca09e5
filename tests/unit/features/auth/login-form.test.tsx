// @vitest-environment happy-dom
// Create Account on a connected device (issue 59): a password that fails the rule is said on the
// field itself (aria-invalid, aria-describedby naming the rule and the reason), not only in a toast;
// and the server's one answer for every address shows "Check your email", signing nobody in.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthValue } from '../../../../src/features/auth/auth-context';
import { signedOutAuth } from '../../auth-value';
import { LoginForm } from '../../../../src/features/auth/login-form';
import { DataError } from '../../../../src/db/storage/errors';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { ToastProvider } from '../../../../src/components/toast/toast-provider';

vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));

afterEach(() => cleanup());

function renderForm(signup: AuthValue['signup']) {
  const auth = signedOutAuth({ signup });
  const toast = vi.fn();
  render(
    <MemoryRouter initialEntries={['/login?mode=signup']}>
      <ToastContext.Provider value={toast}>
        <AuthContext.Provider value={auth}>
          <LoginForm />
        </AuthContext.Provider>
      </ToastContext.Provider>
    </MemoryRouter>,
  );
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nadia Reyes' } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nadia@example.com' } });
  return toast;
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));

describe('LoginForm, Create Account on a connected device', () => {
  it('a password that fails the rule marks the field: aria-invalid, described by the reason and the rule', async () => {
    const signup = vi.fn();
    renderForm(signup);
    const password = screen.getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'short' } });
    submit();
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const described = (password.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['Use at least 10 characters for your password.', expect.stringMatching(/^At least 10 characters/)]);
    expect(signup).not.toHaveBeenCalled();
  });

  it('a field marked empty at Submit loses its mark and its sentence once something is typed in it', async () => {
    const signup = vi.fn();
    renderForm(signup);
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long-enough-password' } });
    submit();
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter your name.')).toBeTruthy();
    fireEvent.change(name, { target: { value: '  ' } });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(name, { target: { value: 'Nadia Reyes' } });
    expect(name.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('Enter your name.')).toBeNull();
    expect(signup).not.toHaveBeenCalled();
  });

  it('the server’s refusal of a common password is said on the field too', async () => {
    renderForm(vi.fn().mockRejectedValue(new DataError('invalid', { message: 'This password is one that many people use.' })));
    const password = screen.getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'password1234' } });
    submit();
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(password.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
      'This password is one that many people use.',
    );
  });

  it('a name the server refuses (another member’s, or the staff’s) is said on the Name field, which takes the focus', async () => {
    const taken = 'Another member already uses this name. Choose another one.';
    const toast = renderForm(vi.fn().mockRejectedValue(new DataError('name_taken', { message: taken })));
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'quiet-harbor-7419' } });
    submit();
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(taken);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ description: taken }));
    // Typing another name takes the mark away.
    fireEvent.change(name, { target: { value: 'Nadia R. Reyes' } });
    expect(name.getAttribute('aria-invalid')).toBe('false');
  });

  it('an email the server refuses is not said on the Name field (its sentence names name@example.com)', async () => {
    const toast = renderForm(
      vi.fn().mockRejectedValue(new DataError('invalid', { message: 'Enter an email address like name@example.com.' })),
    );
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'quiet-harbor-7419' } });
    submit();
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ description: 'Enter an email address like name@example.com.' })),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Account' }).hasAttribute('disabled')).toBe(false));
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('false');
  });

  it('the one answer for every address: the "Check your email" page, nobody signed in', async () => {
    const toast = renderForm(vi.fn().mockRejectedValue(new DataError('check_email')));
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'quiet-harbor-7419' } });
    submit();
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Check your email to finish creating your account');
    expect(toast).not.toHaveBeenCalled();
  });
});

describe('LoginForm, its error toast and the next try', () => {
  it('"Please fill all fields." leaves when the next try’s answer is the password field’s own (a new member saw both at once)', async () => {
    const auth = signedOutAuth({
      signup: vi.fn().mockRejectedValue(new DataError('invalid', { message: 'This password is one that many people use.' })),
    });
    render(
      <MemoryRouter initialEntries={['/login?mode=signup']}>
        <ToastProvider>
          <AuthContext.Provider value={auth}>
            <LoginForm />
          </AuthContext.Provider>
        </ToastProvider>
      </MemoryRouter>,
    );
    submit();
    expect(await screen.findByText('Please fill all fields.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nadia Reyes' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nadia@example.com' } });
    const password = screen.getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'password1234' } });
    submit();
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Please fill all fields.')).toBeNull();
    // Nothing else in the errors' live region: the field says what is wrong.
    expect(screen.getByRole('alert').textContent).toBe('');
  });
});
