// @vitest-environment happy-dom
// A quoted reply (features/post/reply-quote.tsx) follows the one reading rule (shared/visibility.ts):
// a hidden one's text to admins only, a deleted one's to nobody.
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyQuote } from '../../../src/features/post/reply-quote';
import { HIDDEN } from '../../../src/features/post/hidden';
import { newReply } from '../../../src/shared/post-rules';

afterEach(() => cleanup());

const quoted = (state: 'visible' | 'hidden' | 'deleted') => ({
  ...newReply('q', 1, { email: 'o@example.com', name: 'Olga', role: 'user' }, 'The quoted words', null, 1),
  state,
});
const show = (state: 'visible' | 'hidden' | 'deleted', role: string) =>
  render(
    <MemoryRouter>
      <ReplyQuote postId={1} quoteId="q" quoted={quoted(state)} viewer={{ email: 'm@example.com', name: 'M', role } as never} />
    </MemoryRouter>,
  );

describe('ReplyQuote', () => {
  it('a hidden reply: its words in place of the text to a member, the text to an admin', () => {
    show('hidden', 'user');
    expect(screen.getByText(HIDDEN)).toBeTruthy();
    expect(screen.queryByText(/The quoted words/)).toBeNull();
    cleanup();
    show('hidden', 'admin');
    expect(screen.getByText(/The quoted words/)).toBeTruthy();
  });

  it('a visible reply to a member; a deleted one to nobody', () => {
    show('visible', 'user');
    expect(screen.getByText(/The quoted words/)).toBeTruthy();
    cleanup();
    show('deleted', 'admin');
    expect(screen.getByText('This reply was deleted.')).toBeTruthy();
  });
});
