// @vitest-environment happy-dom
// /admin's "Require two-step verification for staff" (issue 63): the switch shows the server's
// setting and changes it; a refusal (the admin's own account has it off) is a toast and the switch
// stays; a staff account held back meanwhile reads why, with a link to Profile. Local-only: absent.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { SecurityPanel } from '../../../../src/features/admin/security-panel';
import { DataError } from '../../../../src/db/storage/errors';
import { ERRORS } from '../../../../src/shared/errors';

const state = vi.hoisted(() => ({ mode: 'connected' as 'connected' | 'local' }));
const api = vi.hoisted(() => ({ readSecuritySettings: vi.fn(), setSecuritySettings: vi.fn(), readTwoStep: vi.fn() }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => state.mode }));
vi.mock('../../../../src/hooks/use-online', () => ({ useOnline: () => true }));
vi.mock('../../../../src/sync/two-step', () => api);

beforeEach(() => {
  state.mode = 'connected';
  for (const fn of Object.values(api)) fn.mockReset();
});
afterEach(() => cleanup());

function renderPanel() {
  const toast = vi.fn();
  render(
    <MemoryRouter>
      <ToastContext.Provider value={toast}>
        <SecurityPanel />
      </ToastContext.Provider>
    </MemoryRouter>,
  );
  return toast;
}

describe('/admin, Require two-step verification for staff', () => {
  it('shows the setting and changes it; a refusal is said and the switch stays', async () => {
    api.readSecuritySettings.mockResolvedValue({ requireTwoStepForStaff: false });
    api.readTwoStep.mockResolvedValue({ on: false, recoveryCodesLeft: 0, required: false });
    api.setSecuritySettings.mockRejectedValueOnce(new DataError('two_step_required', { status: 403, message: 'Turn it on first.' }));
    const toast = renderPanel();
    const toggle = screen.getByRole('switch', { name: 'Require two-step verification for staff' }) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ description: 'Turn it on first.' })));
    expect(toggle.checked).toBe(false);

    api.setSecuritySettings.mockResolvedValue({ requireTwoStepForStaff: true });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(api.setSecuritySettings).toHaveBeenLastCalledWith({ requireTwoStepForStaff: true });
  });

  it('a staff account held back reads why, with a link to Profile; local-only has no panel', async () => {
    api.readSecuritySettings.mockResolvedValue({ requireTwoStepForStaff: true });
    api.readTwoStep.mockResolvedValue({ on: false, recoveryCodesLeft: 0, required: true });
    renderPanel();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(ERRORS.two_step_required.message);
    expect(screen.getByRole('link', { name: 'Open Profile' }).getAttribute('href')).toBe('/profile');
    cleanup();
    state.mode = 'local';
    renderPanel();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
