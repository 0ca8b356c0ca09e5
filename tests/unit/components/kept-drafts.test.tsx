// @vitest-environment happy-dom
// The forum's "Kept drafts": the member's replies that can no longer be sent, with the sentence that
// says why, each read-only with Copy (the clipboard gets its text) and Dismiss (it goes); nothing at
// all while there are none, and never another member's.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepDraft } from '../../../src/db/groups/kept-drafts';
import { KeptDrafts } from '../../../src/components/kept-drafts';

const SENTENCE = 'This conversation is no longer available to you. Your reply is kept here so you can copy it.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Kept drafts', () => {
  it('shows the member’s kept replies read-only, copies one and dismisses it', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await keepDraft('alice@example.com', 'r1', 'My unsent answer');
    await keepDraft('bob@example.com', 'r2', 'Bob’s words');
    render(<KeptDrafts email="alice@example.com" />);
    const region = within(await screen.findByRole('region', { name: 'Kept drafts' }));
    expect(region.getByText(SENTENCE)).toBeTruthy();
    const box = region.getByLabelText('Your reply') as HTMLTextAreaElement;
    expect(box.value).toBe('My unsent answer');
    expect(box.readOnly).toBe(true);
    expect(region.queryByText('Bob’s words')).toBeNull();

    fireEvent.click(region.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('My unsent answer'));
    expect(await region.findByText('Copied.')).toBeTruthy();
    fireEvent.click(region.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Kept drafts' })).toBeNull());
  });

  it('on a lost post’s page, only the replies written to that post', async () => {
    await keepDraft('carol@example.com', 'r3', 'To post 7', 7);
    await keepDraft('carol@example.com', 'r4', 'To post 8', 8);
    render(<KeptDrafts email="carol@example.com" postId={7} />);
    const region = within(await screen.findByRole('region', { name: 'Kept drafts' }));
    expect(region.getAllByLabelText('Your reply').map((box) => (box as HTMLTextAreaElement).value)).toEqual(['To post 7']);
    cleanup();
    // Beside the forum's (every draft): once that one shows, the page of post 9 shows none.
    render(
      <>
        <KeptDrafts email="carol@example.com" postId={9} />
        <KeptDrafts email="carol@example.com" />
      </>,
    );
    expect(await screen.findAllByText('To post 8')).toHaveLength(1);
    expect(screen.getAllByRole('region', { name: 'Kept drafts' })).toHaveLength(1);
  });
});
