// The /admin queue's keyboard shortcuts (shared/moderation.ts REVIEW_SHORTCUTS): which key does
// what, and when a key press is not one (typing in a field, or a chord with Ctrl, Meta or Alt).

import { isTypingTarget, type KeyTarget } from './typing-target';

export type ReviewCommand = 'next' | 'previous' | 'approve' | 'reject' | 'select' | 'help';

const COMMANDS: Record<string, ReviewCommand> = { j: 'next', k: 'previous', a: 'approve', r: 'reject', x: 'select', '?': 'help' };

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: KeyTarget | null;
  defaultPrevented?: boolean;
  /** A key held down repeats: j / k may move on, but a held a, r or x must not review or select post after post. */
  repeat?: boolean;
}

/** The review command of a key press, or null when it is none (or must be left alone). */
export function reviewCommandOf(event: KeyPress): ReviewCommand | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  const command = COMMANDS[event.key] ?? null;
  if (event.repeat && command !== 'next' && command !== 'previous') return null;
  return command;
}
