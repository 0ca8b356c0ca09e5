// @vitest-environment happy-dom
// A hidden character cannot be seen, so it cannot be removed by hand (issue 59 review): New Post's
// refusal offers "Remove hidden characters", which leaves the text as it shows and lets it be sent.
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NewPostModal } from '../../../../src/features/posting/new-post-modal';
import { ToastContext, type ToastMessage } from '../../../../src/components/toast/toast-context';
import { hiddenCharacter, withoutHidden } from '../../../../src/shared/text-checks';

afterEach(() => cleanup());

/** New Post, open, its toasts kept in `toasts`. */
function renderNewPost(toasts: ToastMessage[]) {
  render(
    <MemoryRouter>
      <ToastContext.Provider value={(message: ToastMessage) => void toasts.push(message)}>
        <NewPostModal email="jane.doe@example.com" show onHide={() => undefined} />
      </ToastContext.Provider>
    </MemoryRouter>,
  );
}

describe('withoutHidden', () => {
  it('removes what hiddenCharacter refuses, and keeps what the characters are part of', () => {
    const cases: [string, 'line' | 'lines' | 'name', string][] = [
      ['Pricing\u200B study', 'line', 'Pricing study'],
      ['report\u202Egnp.exe', 'name', 'reportgnp.exe'],
      ['Line one\r\nBcc: x', 'line', 'Line one  Bcc: x'],
      ['Tab\there', 'line', 'Tab here'],
      ['Two\nlines\u2066', 'lines', 'Two\nlines'],
      ['Dev 👩\u200D💻 team', 'line', 'Dev 👩\u200D💻 team'],
      ['می\u200Cخواهم', 'line', 'می\u200Cخواهم'],
      ['👩\u200D💻.png', 'name', '👩💻.png'],
      ['Plain text', 'line', 'Plain text'],
    ];
    for (const [text, shape, kept] of cases) {
      expect(withoutHidden(text, shape)).toBe(kept);
      expect(hiddenCharacter(withoutHidden(text, shape), shape)).toBeNull();
    }
  });
});

describe('New Post with a hidden character', () => {
  it('the refusal offers to remove them; pressed, the title is as it shows, without them', async () => {
    const toasts: ToastMessage[] = [];
    const toast = vi.fn((message: ToastMessage) => void toasts.push(message));
    render(
      <MemoryRouter>
        <ToastContext.Provider value={toast}>
          <NewPostModal email="jane.doe@example.com" show onHide={() => undefined} />
        </ToastContext.Provider>
      </MemoryRouter>,
    );
    const title = screen.getByLabelText('Title');
    fireEvent.change(title, { target: { value: 'Panel\u200B quality in 2026' } });
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'How do you screen for speeders?' } });
    fireEvent.submit(title.closest('form')!);
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toMatchObject({ title: 'Title cannot be saved', variant: 'error' });
    expect(toasts[0]!.action?.label).toBe('Remove hidden characters');

    toasts[0]!.action!.onClick();
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Panel quality in 2026'));
    // No longer marked as refused.
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).not.toBe('true');
    expect(toasts[1]).toMatchObject({ title: 'Hidden characters removed' });
  });

  it('a refusal with nothing hidden offers nothing to remove', async () => {
    const toasts: ToastMessage[] = [];
    renderNewPost(toasts);
    const title = screen.getByLabelText('Title');
    fireEvent.change(title, { target: { value: 'A title with no content' } });
    fireEvent.submit(title.closest('form')!);
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]!.variant).toBe('error');
    expect(toasts[0]!.action).toBeUndefined();
  });
});

describe('New Post’s marks', () => {
  it('a field marked at Submit loses its mark once it is right, and keeps it while it is still wrong', async () => {
    const toasts: ToastMessage[] = [];
    renderNewPost(toasts);
    const title = screen.getByLabelText('Title');
    const tags = screen.getByLabelText('Tags');
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'How do you screen for speeders?' } });
    fireEvent.change(tags, { target: { value: `MaxDiff, ${'x'.repeat(41)}` } });
    fireEvent.submit(title.closest('form')!);
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(tags.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(tags, { target: { value: `MaxDiff, ${'x'.repeat(40)}1` } });
    expect(tags.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(tags, { target: { value: 'MaxDiff, Pricing' } });
    expect(tags.getAttribute('aria-invalid')).toBe('false');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(title, { target: { value: '   ' } });
    expect(title.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(title, { target: { value: 'Speeders' } });
    expect(title.getAttribute('aria-invalid')).toBe('false');
  });
});
