// @vitest-environment happy-dom
// Flag (issue 40, item 7): while the device reads whether the member flagged the item, the button
// looks as Flag does (not disabled, so never greyed or outlined) and does nothing; once read it opens
// the dialog, and once flagged it says "Flagged" and is disabled.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ mine: undefined as undefined | null | { reason: string } }));
vi.mock('dexie-react-hooks', () => ({ useLiveQuery: () => state.mine }));
vi.mock('../../../../src/db/flags/flags', () => ({ getMyFlag: () => new Promise(() => undefined) }));
vi.mock('../../../../src/features/post/flag-dialog', () => ({ FlagDialog: () => <div role="dialog" aria-label="Flag this post" /> }));

const { FlagButton } = await import('../../../../src/features/post/flag-button');

afterEach(() => cleanup());

const show = () => render(<FlagButton target={{ postId: 1, replyId: null }} what="post" className="btn btn-sm" describedBy="title" />);

describe('FlagButton', () => {
  it('while its state is read: enabled to the eye, aria-disabled, and a press opens nothing', () => {
    state.mine = undefined;
    show();
    const button = screen.getByRole('button', { name: 'Flag' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('once read: a press opens the dialog; once flagged it says Flagged and is disabled', () => {
    state.mine = null;
    const { rerender } = show();
    const button = screen.getByRole('button', { name: 'Flag' });
    expect(button.hasAttribute('aria-disabled')).toBe(false);
    fireEvent.click(button);
    expect(screen.getByRole('dialog')).toBeTruthy();
    state.mine = { reason: 'spam' };
    rerender(<FlagButton target={{ postId: 1, replyId: null }} what="post" className="btn btn-sm" describedBy="title" />);
    const flagged = screen.getByRole('button', { name: 'Flagged' });
    expect(flagged.hasAttribute('disabled')).toBe(true);
  });
});
