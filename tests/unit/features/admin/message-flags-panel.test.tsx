// @vitest-environment happy-dom
// Flagged messages on /admin (issue 61): the admin sees who flagged a message and why, not what was
// said; "Open conversation" shows it (the server writes the opening to the staff log); a local-only
// forum shows nothing of it.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const status = vi.hoisted(() => ({ state: 'synced' }));
vi.mock('../../../../src/hooks/use-sync-status', () => ({ useSyncStatus: () => status }));

const { FLAG_GONE_TOAST, MessageFlagsPanel } = await import('../../../../src/features/admin/message-flags-panel');
const { DataError } = await import('../../../../src/db/storage/errors');
const { ToastContext } = await import('../../../../src/components/toast/toast-context');

afterEach(cleanup);

const FLAG = { id: 'f1', messageId: 'm1', flagger: 'Bob Brook', reason: 'spam', text: 'Selling lists', createdAt: 1 };
const OPENED = {
  flag: FLAG,
  conversation: {
    id: 'c1',
    subject: 'A private offer',
    participants: [
      { id: 'a', name: 'Alice Ames', left: false },
      { id: 'b', name: 'Bob Brook', left: false },
    ],
  },
  messages: [{ id: 'm1', authorId: 'a', author: 'Alice Ames', body: 'Buy my panel list.', createdAt: 1 }],
};

describe('Flagged messages', () => {
  it('lists who flagged and why, and opens the conversation only when asked', async () => {
    status.state = 'synced';
    const open = vi.fn(async () => OPENED);
    render(<MessageFlagsPanel load={async () => [FLAG]} open={open} />);
    const list = await screen.findByRole('list', { name: 'Flagged messages' });
    expect(list.textContent).toContain('Bob Brook flagged a message: Spam');
    expect(screen.queryByText('Buy my panel list.')).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: 'Open conversation' }));
    expect(await screen.findByRole('heading', { name: 'A private offer' })).toBeTruthy();
    expect(open).toHaveBeenCalledWith('f1');
    expect(screen.getByRole('list', { name: 'Messages of the flagged conversation' }).textContent).toContain(
      'Alice Ames (flagged)Buy my panel list.',
    );
    expect(screen.getByText(/Opening it was written to the staff log/)).toBeTruthy();
  });

  it('Dismiss settles the message’s flags and takes them off the list', async () => {
    status.state = 'synced';
    const other = { ...FLAG, id: 'f2', messageId: 'm2', flagger: 'Carol Cole' };
    const dismiss = vi.fn(async () => undefined);
    render(<MessageFlagsPanel load={async () => [FLAG, { ...FLAG, id: 'f3', flagger: 'Dan Dale' }, other]} dismiss={dismiss} />);
    const list = await screen.findByRole('list', { name: 'Flagged messages' });
    fireEvent.click(within(list).getAllByRole('button', { name: 'Dismiss' })[0]!);
    expect(dismiss).toHaveBeenCalledWith('m1');
    // Both flags of m1 go; Carol's of another message stays.
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(list.textContent).toContain('Carol Cole');
  });

  it('a flag dismissed meanwhile opens nothing: it leaves the list, and a toast says why', async () => {
    status.state = 'synced';
    const toast = vi.fn();
    const open = vi.fn(async () => {
      throw new DataError('conversation_not_found', { status: 404 });
    });
    render(
      <ToastContext.Provider value={toast}>
        <MessageFlagsPanel load={async () => [FLAG, { ...FLAG, id: 'f2', messageId: 'm2', flagger: 'Dan Dale' }]} open={open} />
      </ToastContext.Provider>,
    );
    const list = await screen.findByRole('list', { name: 'Flagged messages' });
    fireEvent.click(within(list).getAllByRole('button', { name: 'Open conversation' })[0]!);
    await waitFor(() => expect(toast).toHaveBeenCalledWith(FLAG_GONE_TOAST));
    expect(open).toHaveBeenCalledWith('f1');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Dan Dale')]);
  });

  it('shows nothing on a local-only forum', () => {
    status.state = 'local';
    const load = vi.fn(async () => [FLAG]);
    const { container } = render(<MessageFlagsPanel load={load} />);
    expect(container.textContent).toBe('');
    expect(load).not.toHaveBeenCalled();
  });
});
