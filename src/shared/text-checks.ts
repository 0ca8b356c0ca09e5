// The checks every text field shares (blank, too long, unstorable) and a reply's rule: apart from
// the forms' rules (validation.ts, which re-exports them), as a device reading its stored posts and
// replies (db/posts/post-codec.ts) needs these and none of the rest.

import { LIMITS } from './post-rules';
import { showsNothing } from './names';
import { validateMentions } from './mentions';

export interface Problem {
  code: 'invalid';
  title: string;
  message: string;
}

export const problem = (title: string, message: string): Problem => ({ code: 'invalid', title, message });
/** Nothing there: empty, spaces, or only characters that show nothing (a title of one U+200B is blank). */
export const blank = (value: string | undefined | null): boolean => !value || showsNothing(value);

// A NUL (PostgreSQL's text cannot hold it) or half of a surrogate pair (not a character at all:
// it cannot be encoded as UTF-8). Neither can be typed; both arrive only from scripts and pastes.
// With the `u` flag a well-formed pair is one code point, so the class matches only a lone half.
const UNSTORABLE = /\0|[\uD800-\uDFFF]/u;

/** True when `value` holds a character no database can store (a NUL or a lone surrogate). */
export function hasUnstorableText(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** The problem of a field holding an unstorable character, or null. */
export function unstorableText(field: string, value: string): Problem | null {
  if (!hasUnstorableText(value)) return null;
  return problem(
    `${field} cannot be saved`,
    `${field} holds a character that cannot be stored (a NUL or a broken character, usually from a paste). Remove it and try again.`,
  );
}

/** The catalogue's "too long" problem for a field, or null when `value` fits `max`. */
export function tooLong(field: string, value: string, max: number): Problem | null {
  if (value.length <= max) return null;
  return problem(
    `${field} is too long`,
    `${field} can be at most ${max.toLocaleString('en-US')} characters (it has ${value.length.toLocaleString('en-US')}).`,
  );
}

/** A reply (new or edited): not empty after trimming, within LIMITS.reply, storable. */
export function validateReply(content: string): Problem | null {
  if (blank(content)) return problem('Empty reply', 'Please write something before posting your reply.');
  return tooLong('Reply', content.trim(), LIMITS.reply) ?? unstorableText('Reply', content) ?? validateMentions(content);
}
