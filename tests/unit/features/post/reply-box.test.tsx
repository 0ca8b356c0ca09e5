// @vitest-environment happy-dom
// Post Reply while the reply is still being sent: the reply shows in the thread before its sending
// ends (the live list reads it at once), so a member may already quote another reply or type the
// next one. Only what was sent is cleared when the sending ends; a quote or words started meanwhile
// stay (the a11y run once lost a quote clicked in that moment).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../../../src/db/types';

const sending = vi.hoisted(() => ({ finish: (): void => undefined }));
const createReply = vi.hoisted(() => vi.fn(() => new Promise((resolve) => (sending.finish = () => resolve({ id: 'sent' })))));
vi.mock('../../../../src/db/replies/replies', () => ({
  createReply,
  loadReplyDraft: async () => '',
  saveReplyDraft: async () => undefined,
}));

const { ReplyBox } = await import('../../../../src/features/post/reply-box');

afterEach(cleanup);

const quoted = (id: string) => ({ id, author: 'Ana', content: `Reply ${id}` }) as Reply;

function renderBox(quote: Reply | null, onRemoveQuote = vi.fn()) {
  const props = { postId: 1, email: 'jane@example.com', onRemoveQuote, onPosted: vi.fn(), textarea: createRef<HTMLTextAreaElement>() };
  const view = render(<ReplyBox {...props} quote={quote} />);
  return { ...props, rerender: (next: Reply | null) => view.rerender(<ReplyBox {...props} quote={next} />) };
}

describe('ReplyBox while a reply is being sent', () => {
  it('keeps a quote started and words typed meanwhile; clears only the text and quote that were sent', async () => {
    const box = renderBox(quoted('a'));
    const textbox = screen.getByRole('textbox', { name: 'Your reply' });
    fireEvent.change(textbox, { target: { value: 'First reply' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    await waitFor(() => expect(createReply).toHaveBeenCalledWith(1, 'First reply', 'a', []));
    // Meanwhile: Quote on another reply, and the next words.
    box.rerender(quoted('b'));
    fireEvent.change(textbox, { target: { value: 'Next words' } });
    sending.finish();
    await waitFor(() => expect(box.onPosted).toHaveBeenCalled());
    expect(box.onRemoveQuote).toHaveBeenCalledWith(quoted('a'));
    expect((textbox as HTMLTextAreaElement).value).toBe('Next words');
  });

  it('a reply sent without a quote never removes one started meanwhile; the sent text is cleared', async () => {
    const box = renderBox(null);
    const textbox = screen.getByRole('textbox', { name: 'Your reply' });
    fireEvent.change(textbox, { target: { value: 'Plain reply' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    await waitFor(() => expect(createReply).toHaveBeenCalledWith(1, 'Plain reply', null, []));
    box.rerender(quoted('b'));
    sending.finish();
    await waitFor(() => expect(box.onPosted).toHaveBeenCalled());
    expect(box.onRemoveQuote).not.toHaveBeenCalled();
    expect((textbox as HTMLTextAreaElement).value).toBe('');
  });

  it('once sent, the focus goes back to Your reply from Post Reply (which turns off), unless it moved elsewhere meanwhile', async () => {
    const box = renderBox(null);
    const textbox = screen.getByRole('textbox', { name: 'Your reply' });
    fireEvent.change(textbox, { target: { value: 'Sent from the keyboard' } });
    const post = screen.getByRole('button', { name: 'Post Reply' });
    post.focus();
    fireEvent.click(post);
    sending.finish();
    await waitFor(() => expect(box.onPosted).toHaveBeenCalled());
    await waitFor(() => expect(document.activeElement).toBe(textbox));

    // Clicked or tapped (a click's detail is 1 or more): not taken back (on a phone the keyboard would rise).
    fireEvent.change(textbox, { target: { value: 'Tapped' } });
    post.focus();
    fireEvent.click(post, { detail: 1 });
    sending.finish();
    await waitFor(() => expect(box.onPosted).toHaveBeenCalledTimes(2));
    await waitFor(() => expect((textbox as HTMLTextAreaElement).value).toBe(''));
    expect(document.activeElement).toBe(post);

    // Moved elsewhere while it was sent: left there.
    const elsewhere = document.createElement('button');
    document.body.append(elsewhere);
    fireEvent.change(textbox, { target: { value: 'Second one' } });
    fireEvent.click(post);
    elsewhere.focus();
    sending.finish();
    await waitFor(() => expect(box.onPosted).toHaveBeenCalledTimes(3));
    await waitFor(() => expect((textbox as HTMLTextAreaElement).value).toBe(''));
    expect(document.activeElement).toBe(elsewhere);
    elsewhere.remove();
  });
});

describe('ReplyBox’s refusal', () => {
  it('a refusal still up goes once the reply is sent (it answered the text before)', async () => {
    const { ToastProvider } = await import('../../../../src/components/toast/toast-provider');
    const { LIMITS } = await import('../../../../src/shared/post-rules');
    const props = {
      postId: 1,
      email: 'jane@example.com',
      onRemoveQuote: vi.fn(),
      onPosted: vi.fn(),
      textarea: createRef<HTMLTextAreaElement>(),
    };
    render(
      <ToastProvider>
        <ReplyBox {...props} quote={null} />
      </ToastProvider>,
    );
    const textbox = screen.getByRole('textbox', { name: 'Your reply' });
    fireEvent.change(textbox, { target: { value: 'x'.repeat(LIMITS.reply + 1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    const alert = screen.getByRole('alert');
    await waitFor(() => expect(alert.textContent).toMatch(/too long/i));
    fireEvent.change(textbox, { target: { value: 'Short enough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post Reply' }));
    // At the press, not once its time is up.
    expect(alert.textContent).toBe('');
    sending.finish();
    await waitFor(() => expect(props.onPosted).toHaveBeenCalled());
  });
});
