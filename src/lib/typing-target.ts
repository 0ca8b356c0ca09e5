// Whether a key press is typing (a text field, a select, anything contenteditable has the key):
// the forum's `/` and the admin queue's shortcuts leave those alone. A file of its own, so that the
// forum's toolbar does not load the admin queue's shortcuts (review-keys.ts).

/** What an element is, as far as typing goes (a subset of Element, so the rule is testable without a DOM). */
export interface KeyTarget {
  tagName?: string;
  /** An input's type: a checkbox or a button takes no text, so keys work there. */
  type?: string;
  isContentEditable?: boolean;
}

const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color']);

/** True while the member types: a text input, textarea, select or anything contenteditable has the key. */
export function isTypingTarget(target: KeyTarget | null): boolean {
  if (!target) return false;
  const tag = target.tagName?.toLowerCase();
  if (tag === 'input') return !NOT_TYPED.has((target.type ?? 'text').toLowerCase());
  return tag === 'textarea' || tag === 'select' || target.isContentEditable === true;
}
