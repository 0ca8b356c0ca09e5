import { describe, expect, it } from 'vitest';
import { reviewCommandOf } from '../../../src/lib/review-keys';
import { isTypingTarget } from '../../../src/lib/typing-target';
import { REVIEW_SHORTCUTS } from '../../../src/shared/moderation';

const press = (key: string, overrides: Partial<Parameters<typeof reviewCommandOf>[0]> = {}) =>
  reviewCommandOf({ key, ctrlKey: false, metaKey: false, altKey: false, target: { tagName: 'BODY' }, ...overrides });

describe('the review queue keys', () => {
  it('maps every key of REVIEW_SHORTCUTS to a command', () => {
    expect(REVIEW_SHORTCUTS.map((shortcut) => press(shortcut.key))).toEqual(['next', 'previous', 'approve', 'reject', 'select', 'help']);
  });

  it('ignores other keys, and chords with Ctrl, Meta or Alt', () => {
    expect(press('q')).toBeNull();
    expect(press('J')).toBeNull();
    expect(press('a', { ctrlKey: true })).toBeNull();
    expect(press('r', { metaKey: true })).toBeNull();
    expect(press('j', { altKey: true })).toBeNull();
    expect(press('a', { defaultPrevented: true })).toBeNull();
  });

  it('a held key repeats moving, never reviewing or selecting', () => {
    expect(press('j', { repeat: true })).toBe('next');
    expect(press('k', { repeat: true })).toBe('previous');
    for (const key of ['a', 'r', 'x', '?']) expect(press(key, { repeat: true })).toBeNull();
  });

  it('ignores keys typed into a field (input, textarea, select, contenteditable), not on a button', () => {
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT']) expect(press('a', { target: { tagName } })).toBeNull();
    expect(press('r', { target: { tagName: 'DIV', isContentEditable: true } })).toBeNull();
    expect(press('a', { target: { tagName: 'INPUT', type: 'search' } })).toBeNull();
    expect(press('a', { target: { tagName: 'BUTTON' } })).toBe('approve');
    expect(press('x', { target: { tagName: 'INPUT', type: 'checkbox' } })).toBe('select');
    expect(press('j', { target: null })).toBe('next');
    expect(isTypingTarget({ tagName: 'article' })).toBe(false);
  });
});
