// The input rules of product.md §5 and the limits of the forms, as plain functions shared by the
// device (both modes) and the server (its zod schemas call them), so a refusal reads the same
// wherever it is made. Each returns `null` when the input is fine, or the toast (title, sentence).

import { ERRORS } from './errors';
import { CATEGORIES, LIMITS, TAG_LIMITS } from './post-rules';
import { FLAG_REASONS, MODERATION_LIMITS } from './moderation';
import { blank, hasUnstorableText, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';
import { validateMentions } from './mentions';

export { hasUnstorableText, hiddenText, tooLong, unstorableText, validateReply, type Problem } from './text-checks';
// An account's rules (sign-in, sign-up, names, passwords, email) live in account-rules.ts: /login needs them, not the rest.
export {
  EMAIL_FORMAT_MESSAGE,
  MIN_PASSWORD_LENGTH,
  validateChangeEmail,
  validateEmailAddress,
  validateMemberName,
  validateName,
  validateNewPassword,
  validateSignIn,
  validateSignUp,
} from './account-rules';

/** New post: title and content must be non-empty after trimming, within the limits, storable, the title one line, neither with hidden characters. */
export function validateNewPost(title: string, content: string): Problem | null {
  if (blank(title) || blank(content)) {
    return problem('Missing Information', 'Please fill in both title and content for your post.');
  }
  return (
    tooLong('Title', title.trim(), LIMITS.title) ??
    tooLong('Content', content.trim(), LIMITS.content) ??
    unstorableText('Title', title) ??
    unstorableText('Content', content) ??
    hiddenText('Title', title, 'line') ??
    hiddenText('Content', content, 'lines') ??
    validateMentions(content)
  );
}

/**
 * A category as a post names it: its id (one of the six, whose ids are their names, or one the
 * admins made; issue 61). Whether the member may post in it is the operation's rule (rules.ts,
 * postableCategory), over the categories its store holds.
 */
export function validateCategory(category: unknown): Problem | null {
  if ((CATEGORIES as readonly unknown[]).includes(category)) return null;
  if (typeof category === 'string' && !blank(category) && category.length <= 100 && !hasUnstorableText(category)) return null;
  return problem(ERRORS.invalid.title, 'Please choose one of the forum’s categories.');
}

/** Tags: a list of at most TAG_LIMITS.count words, each non-empty after trimming, at most TAG_LIMITS.length long, storable. */
export function validateTags(tags: unknown): Problem | null {
  const words = Array.isArray(tags) && tags.every((tag) => typeof tag === 'string') ? (tags as string[]) : null;
  const rule = `Tags: at most ${TAG_LIMITS.count}, each at most ${TAG_LIMITS.length} characters and not empty.`;
  if (!words || words.some((tag) => blank(tag))) return problem(ERRORS.invalid.title, rule);
  // Which one is wrong, said: a person fixes what is named (quoted only once it holds nothing hidden).
  if (words.length > TAG_LIMITS.count) return problem(ERRORS.invalid.title, `${rule} There are ${words.length}.`);
  for (const tag of words) {
    const unsafe = unstorableText('A tag', tag) ?? hiddenText('A tag', tag, 'line');
    if (unsafe) return unsafe;
  }
  const long = words.find((tag) => tag.trim().length > TAG_LIMITS.length);
  if (long) {
    const start = [...long.trim()].slice(0, 20).join('');
    return problem(ERRORS.invalid.title, `${rule} “${start}…” has ${long.trim().length}.`);
  }
  return null;
}

/** A rejection or hide reason (optional: '' is none): within MODERATION_LIMITS.reason, storable. */
export function validateReason(reason: string): Problem | null {
  return (
    tooLong('Reason', reason.trim(), MODERATION_LIMITS.reason) ?? unstorableText('Reason', reason) ?? hiddenText('Reason', reason, 'lines')
  );
}

/** A flag: one of FLAG_REASONS; `other` needs the member's own words; the words within MODERATION_LIMITS.flagText. */
export function validateFlag(reason: unknown, text: string): Problem | null {
  if (!(FLAG_REASONS as readonly unknown[]).includes(reason)) {
    return problem(ERRORS.invalid.title, 'Please choose why you are flagging this.');
  }
  if (reason === 'other' && blank(text)) return problem('Missing Information', 'Please say what is wrong with it.');
  return (
    tooLong('Your words', text.trim(), MODERATION_LIMITS.flagText) ??
    unstorableText('Your words', text) ??
    hiddenText('Your words', text, 'lines')
  );
}
