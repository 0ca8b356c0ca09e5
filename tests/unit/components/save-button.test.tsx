// @vitest-environment happy-dom
// Save on a card and on a post page (issue 40, item 7): the state is in the label ("Save", "Saved"),
// and while the state is still read the button looks exactly as "Save" does: never greyed (disabled)
// nor outlined, only aria-disabled until it can act.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SaveButton } from '../../../src/components/save-button';

afterEach(() => cleanup());

const button = () => screen.getByRole('button', { name: 'Save' });

describe('SaveButton', () => {
  it('says Saved when saved, Save when not, its name staying "Save" (aria-pressed says the state)', () => {
    const { rerender } = render(<SaveButton postId={1} state={{ email: 'member@example.com', saved: false }} />);
    expect(button().textContent).toBe('Save');
    expect(button().getAttribute('aria-pressed')).toBe('false');
    rerender(<SaveButton postId={1} state={{ email: 'member@example.com', saved: true }} />);
    expect(button().textContent).toBe('Saved');
    expect(button().getAttribute('aria-pressed')).toBe('true');
  });

  it('while its state is read it looks as Save does: not disabled, not outlined, only aria-disabled', () => {
    const { rerender } = render(<SaveButton postId={1} state={{ email: 'member@example.com', saved: undefined }} />);
    const reading = { className: button().className, disabled: button().hasAttribute('disabled'), text: button().textContent };
    expect(button().getAttribute('aria-disabled')).toBe('true');
    rerender(<SaveButton postId={1} state={{ email: 'member@example.com', saved: false }} />);
    expect(reading).toEqual({ className: button().className, disabled: false, text: 'Save' });
    expect(button().className).not.toMatch(/btn-outline|disabled/);
    expect(button().hasAttribute('aria-disabled')).toBe(false);
  });
});
