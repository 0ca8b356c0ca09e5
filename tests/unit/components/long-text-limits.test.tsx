// @vitest-environment happy-dom
// A long text past its limit is kept whole (a new user's trial: a reply box cut a paste at 10,000
// characters without a word). The boxes of long texts have no maxLength: the counter says how much
// to remove, the box is marked, and sending refuses it in the data layer's words.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CharCounter } from '../../../src/components/char-counter';
import { LIMITS } from '../../../src/shared/post-rules';
import type { Reply } from '../../../src/db/types';

const replies = vi.hoisted(() => ({
  createReply: vi.fn(async () => ({ id: 'sent' })),
  editReply: vi.fn(async () => undefined),
}));
vi.mock('../../../src/db/replies/replies', () => ({
  ...replies,
  loadReplyDraft: async () => '',
  saveReplyDraft: async () => undefined,
}));
const shown = vi.hoisted(() => vi.fn());
vi.mock('../../../src/components/toast/toast-context', () => ({ useToast: () => shown, useWithdrawToast: () => () => undefined }));

const { ReplyBox } = await import('../../../src/features/post/reply-box');
const { ReplyEditForm } = await import('../../../src/features/post/reply-edit-form');

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const pasted = 'w'.repeat(LIMITS.reply + 250);

describe('CharCounter', () => {
  it('at the limit says the limit; past it says how much to remove', () => {
    const { rerender } = render(<CharCounter id="c" length={LIMITS.reply} max={LIMITS.reply} noun="A reply" />);
    expect(screen.getByRole('status').textContent).toBe('A reply can be at most 10,000 characters. ');
    rerender(<CharCounter id="c" length={LIMITS.reply + 250} max={LIMITS.reply} noun="A reply" />);
    expect(screen.getByRole('status').textContent).toBe('A reply can be at most 10,000 characters: remove 250. ');
    expect(document.getElementById('c')!.textContent).toContain('10,250 / 10,000');
  });
});

describe('a reply past its limit', () => {
  it('Your reply keeps all of a long paste, marks it, and refuses to send it in words', async () => {
    const textarea = createRef<HTMLTextAreaElement>();
    render(<ReplyBox postId={1} email="jane@example.com" quote={null} onRemoveQuote={vi.fn()} onPosted={vi.fn()} textarea={textarea} />);
    const box = screen.getByRole('textbox', { name: 'Your reply' }) as HTMLTextAreaElement;
    expect(box.hasAttribute('maxlength')).toBe(false);
    fireEvent.change(box, { target: { value: pasted } });
    expect(box.value).toHaveLength(LIMITS.reply + 250);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toContain('remove 250');
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    await waitFor(() =>
      expect(shown).toHaveBeenCalledWith(
        expect.objectContaining({ variant: 'error', description: 'Reply can be at most 10,000 characters (it has 10,250).' }),
      ),
    );
    expect(replies.createReply).not.toHaveBeenCalled();
    expect(box.value).toBe(pasted);
    expect(document.activeElement).toBe(box);
    // Cut to the limit, it goes.
    fireEvent.change(box, { target: { value: pasted.slice(0, LIMITS.reply) } });
    expect(box.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    await waitFor(() => expect(replies.createReply).toHaveBeenCalledWith(1, pasted.slice(0, LIMITS.reply), null, []));
  });

  it('Edit reply keeps all of a long paste and marks it', () => {
    render(<ReplyEditForm reply={{ id: 'r1', content: 'Short' } as Reply} onDone={vi.fn()} />);
    const box = screen.getByRole('textbox', { name: 'Edit reply' }) as HTMLTextAreaElement;
    expect(box.hasAttribute('maxlength')).toBe(false);
    fireEvent.change(box, { target: { value: pasted } });
    expect(box.value).toHaveLength(LIMITS.reply + 250);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('status').textContent).toContain('remove 250');
  });
});
