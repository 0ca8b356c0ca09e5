// @vitest-environment happy-dom
// Log out with changes not sent yet (issue 59, item 1; PRODUCT.md): the dialog names how many, and
// the member may stay signed in or log out anyway.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnsentChangesDialog } from '../../../../src/components/confirm/unsent-changes-dialog';

afterEach(() => cleanup());

describe('UnsentChangesDialog', () => {
  it('names the changes not sent yet, with Stay signed in and Log out anyway', async () => {
    const onStay = vi.fn();
    const onLogOut = vi.fn(() => Promise.resolve());
    render(<UnsentChangesDialog unsent={2} onStay={onStay} onLogOut={onLogOut} />);
    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent yet' });
    expect(dialog.textContent).toContain('2 changes are not sent yet: they will be sent the next time you sign in here.');
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(onStay).toHaveBeenCalledTimes(1);
    expect(onLogOut).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Log out anyway' }));
    await waitFor(() => expect(onLogOut).toHaveBeenCalledTimes(1));
  });

  it('one change: the singular sentence', async () => {
    render(<UnsentChangesDialog unsent={1} onStay={() => undefined} onLogOut={() => Promise.resolve()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent yet' });
    expect(dialog.textContent).toContain('1 change is not sent yet: it will be sent the next time you sign in here.');
  });
});
