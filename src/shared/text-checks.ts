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
  return (
    tooLong('Reply', content.trim(), LIMITS.reply) ??
    unstorableText('Reply', content) ??
    hiddenText('Reply', content, 'lines') ??
    validateMentions(content)
  );
}

/**
 * Whether a text may hold line breaks and tabs: 'lines' (a post's content, a reply, a flag's or a
 * reason's words), 'line' (a title, a tag, a poll's question and options: one line), 'name' (a file
 * name: one line, and not even the joiners an emoji is drawn with).
 */
export type TextShape = 'lines' | 'line' | 'name';

// Format and control characters: the zero-width ones (U+200B–U+200F, U+2060–U+2064, U+FEFF), the
// direction marks, embeddings, overrides and isolates (U+061C, U+202A–U+202E, U+2066–U+2069), the
// soft hyphen, the tag characters, and every control. With the line and paragraph separators
// (U+2028, U+2029), which break a line as a newline does.
const HIDDEN = /[\p{Cf}\p{Cc}\u2028\u2029]/u;
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
// What may stand between a pictograph and the zero width joiner: a variation selector, a skin tone.
const isEmojiPart = (char: string) => {
  const point = char.codePointAt(0)!;
  return point === 0xfe0e || point === 0xfe0f || (point >= 0x1f3fb && point <= 0x1f3ff);
};
const JOINER = '\u200D';
const NON_JOINER = '\u200C';
const WAVING_BLACK_FLAG = 0x1f3f4;
const isTag = (point: number) => point >= 0xe0020 && point <= 0xe007f;
// A letter (or a mark on it) of a script that needs the joiners between letters (Persian, the Indic
// scripts): not ASCII, where a joiner only ever hides something.
const JOINED_LETTER = /[\p{L}\p{M}]/u;
const joinsLetters = (before: string | undefined, after: string | undefined) =>
  before !== undefined &&
  after !== undefined &&
  JOINED_LETTER.test(before) &&
  JOINED_LETTER.test(after) &&
  before.charCodeAt(0) > 0x7f &&
  after.charCodeAt(0) > 0x7f;

/**
 * True when the format character at `index` of `chars` is part of what the text means rather than
 * something hidden in it: the zero width joiner inside an emoji (👩‍💻: pictograph, joiner,
 * pictograph, with variation selectors and skin tones between), the tags of a flag (🏴 England), and
 * the joiner and non-joiner between two letters of a script that writes with them (Persian می‌خواهم,
 * Hindi, Malayalam). A file name keeps none of them: it is read character by character.
 */
function meant(chars: readonly string[], index: number): boolean {
  const char = chars[index]!;
  const point = char.codePointAt(0)!;
  if (isTag(point)) {
    let at = index - 1;
    while (at >= 0 && isTag(chars[at]!.codePointAt(0)!)) at -= 1;
    return at >= 0 && chars[at]!.codePointAt(0) === WAVING_BLACK_FLAG;
  }
  if (char !== JOINER && char !== NON_JOINER) return false;
  const before = chars[index - 1];
  const after = chars[index + 1];
  if (joinsLetters(before, after)) return true;
  if (char !== JOINER || after === undefined || !PICTOGRAPH.test(after)) return false;
  let at = index - 1;
  while (at >= 0 && isEmojiPart(chars[at]!)) at -= 1;
  return at >= 0 && PICTOGRAPH.test(chars[at]!);
}

/** The first character of `text` that is hidden in it (an invisible or direction-changing one, a control), or null. */
export function hiddenCharacter(text: string, shape: TextShape): string | null {
  if (!HIDDEN.test(text)) return null;
  const chars = [...text];
  for (const [index, char] of chars.entries()) {
    if (!HIDDEN.test(char)) continue;
    if (shape === 'lines' && (char === '\n' || char === '\r' || char === '\t')) continue;
    if (shape !== 'name' && meant(chars, index)) continue;
    return char;
  }
  return null;
}

/**
 * `text` without what hiddenCharacter would refuse in it (for "Remove hidden characters"): its
 * invisible and direction-changing characters go, what they are part of stays (an emoji's joiner,
 * a flag's tags, a Persian word's non-joiner); a one-line text's line breaks become spaces.
 */
export function withoutHidden(text: string, shape: TextShape): string {
  if (!HIDDEN.test(text)) return text;
  const chars = [...text];
  return chars
    .map((char, index) => {
      if (!HIDDEN.test(char)) return char;
      if (shape === 'lines' && (char === '\n' || char === '\r' || char === '\t')) return char;
      if (shape !== 'lines' && (LINE_BREAK.test(char) || char === '\t')) return ' ';
      return shape !== 'name' && meant(chars, index) ? char : '';
    })
    .join('');
}

/**
 * The problem of a text a member writes that holds a line break where one line is written (a title,
 * a tag, a poll's question or option, a file name), or an invisible or direction-changing character
 * (`report\u202Egnp.exe` shows as "reportexe.png"); null when it holds neither. Checked on the text
 * as it is kept (trimmed): a space or newline at either end is trimmed away, not refused.
 */
export function hiddenText(field: string, value: string, shape: TextShape): Problem | null {
  const kept = value.trim();
  if (shape !== 'lines' && LINE_BREAK.test(kept)) {
    return problem(`${field} is one line`, `${field} cannot hold a line break. Write it on one line.`);
  }
  const hidden = hiddenCharacter(kept, shape);
  if (hidden === null) return null;
  const code = `U+${hidden.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return problem(
    `${field} cannot be saved`,
    `${field} holds an invisible or direction-changing character (${code}, often from a paste). Remove it and try again.`,
  );
}
