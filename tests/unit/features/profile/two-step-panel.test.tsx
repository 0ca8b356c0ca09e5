// @vitest-environment happy-dom
// Profile's "Two-step verification" (issue 63): Set up shows the QR code, the key in a read-only
// field "Key", a field "Code" and "Turn on"; then the ten recovery codes once, with "Download codes";
// when on, "Turn off" and "New recovery codes" ask for a code (the app's, or a recovery code).
// Local-only, the section is absent; offline, its buttons wait and a sentence says why.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { TwoStepPanel, TWO_STEP_OFFLINE } from '../../../../src/features/profile/two-step-panel';
import { DataError } from '../../../../src/db/storage/errors';

const state = vi.hoisted(() => ({ mode: 'connected' as 'connected' | 'local', online: true }));
const api = vi.hoisted(() => ({
  readTwoStep: vi.fn(),
  startTwoStepSetup: vi.fn(),
  enableTwoStep: vi.fn(),
  disableTwoStep: vi.fn(),
  newRecoveryCodes: vi.fn(),
}));
const saveFile = vi.hoisted(() => vi.fn());
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => state.mode }));
vi.mock('../../../../src/hooks/use-online', () => ({ useOnline: () => state.online }));
vi.mock('../../../../src/sync/two-step', () => api);
vi.mock('../../../../src/lib/download', () => ({ saveFile }));

const CODES = Array.from({ length: 10 }, (_, n) => `code-${String(n).padStart(4, '0')}`);

beforeEach(() => {
  state.mode = 'connected';
  state.online = true;
  for (const fn of [...Object.values(api), saveFile]) fn.mockReset();
});
afterEach(() => cleanup());

const toast = vi.fn();
const tree = () => (
  <MemoryRouter>
    <ToastContext.Provider value={toast}>
      <TwoStepPanel email="nadia@example.com" />
    </ToastContext.Provider>
  </MemoryRouter>
);

function renderPanel() {
  toast.mockReset();
  const { rerender } = render(tree());
  return Object.assign(toast, { again: () => rerender(tree()) });
}

const section = () => screen.getByRole('region', { name: 'Two-step verification' });

describe('Profile, two-step verification', () => {
  it('Set up → QR code, Key, Code, Turn on → ten recovery codes once with Download codes → on', async () => {
    api.readTwoStep.mockResolvedValue({ on: false, recoveryCodesLeft: 0, required: false });
    api.startTwoStepSetup.mockResolvedValue({ key: 'ABCD EFGH IJKL', uri: 'otpauth://totp/x', qr: 'data:image/svg+xml;base64,PHN2Zy8+' });
    api.enableTwoStep.mockResolvedValue(CODES);
    renderPanel();
    fireEvent.click(await within(section()).findByRole('button', { name: 'Set up' }));
    const key = await screen.findByLabelText('Key');
    expect((key as HTMLInputElement).value).toBe('ABCD EFGH IJKL');
    expect(key.hasAttribute('readonly')).toBe(true);
    expect(screen.getByRole('img', { name: /QR code/ }).getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');

    // Not six digits: said on the field, nothing sent.
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true'));
    expect(api.enableTwoStep).not.toHaveBeenCalled();

    api.readTwoStep.mockResolvedValue({ on: true, recoveryCodesLeft: 10, required: false });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(api.enableTwoStep).toHaveBeenCalledWith('123456', 'nadia@example.com');

    fireEvent.click(screen.getByRole('button', { name: 'Download codes' }));
    const [blob, name] = saveFile.mock.calls[0] as [Blob, string];
    expect(name).toMatch(/\.txt$/);
    const text = await blob.text();
    for (const code of CODES) expect(text).toContain(code);

    // Shown once: gone when the member is done, and the section says it is on.
    fireEvent.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Turn off' })).toBeTruthy();
    expect(section().textContent).toContain('10 recovery codes left');
  });

  it('when on: Turn off asks a code (the app’s or a recovery code); New recovery codes shows ten new ones', async () => {
    api.readTwoStep.mockResolvedValue({ on: true, recoveryCodesLeft: 3, required: false });
    api.newRecoveryCodes.mockResolvedValue(CODES);
    const toast = renderPanel();
    const off = await screen.findByRole('button', { name: 'Turn off' });
    fireEvent.click(off);
    await waitFor(() => expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true'));
    expect(api.disableTwoStep).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'wxyz-2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(api.newRecoveryCodes).toHaveBeenCalledWith({ recoveryCode: 'wxyz-2345' });
    fireEvent.click(screen.getByRole('button', { name: 'I saved them' }));

    api.disableTwoStep.mockRejectedValueOnce(new DataError('bad_code', { status: 401 }));
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Wrong code' })));
    expect(api.disableTwoStep).toHaveBeenCalledWith({ code: '654321' });

    api.disableTwoStep.mockResolvedValue(undefined);
    api.readTwoStep.mockResolvedValue({ on: false, recoveryCodesLeft: 0, required: false });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '654322' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
  });

  it('local-only: no section; offline: the buttons wait and a sentence says it needs the network', async () => {
    state.mode = 'local';
    renderPanel();
    expect(screen.queryByRole('region', { name: 'Two-step verification' })).toBeNull();
    cleanup();

    state.mode = 'connected';
    api.readTwoStep.mockResolvedValue({ on: true, recoveryCodesLeft: 10, required: false });
    const { again } = renderPanel();
    expect((await screen.findByRole('button', { name: 'Turn off' })).hasAttribute('disabled')).toBe(false);
    state.online = false;
    again();
    expect(within(section()).getByText(TWO_STEP_OFFLINE)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn off' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'New recovery codes' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    // A device that opens Profile offline: the sentence, and nothing asked of the server.
    renderPanel();
    expect(within(section()).getByText(TWO_STEP_OFFLINE)).toBeTruthy();
    expect(api.readTwoStep).toHaveBeenCalledTimes(1);
  });
});
