// The input rules of product.md §5 and the limits of the forms, as plain functions shared by the
// device (both modes) and the server (its zod schemas call them), so a refusal reads the same
// wherever it is made. Each returns `null` when the input is fine, or the toast (title, sentence).

import { ERRORS } from './errors';
import { CATEGORIES, LIMITS, TAG_LIMITS } from './post-rules';
import { FLAG_REASONS, MODERATION_LIMITS } from './moderation';
import { hasInvisible, passesForStaff } from './names';
import { blank, hasUnstorableText, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';
import { validateMentions } from './mentions';

const FILL_ALL_FIELDS = 'Please fill all fields.';

export { hasUnstorableText, hiddenText, tooLong, unstorableText, validateReply, type Problem } from './text-checks';

/** Sign in: email and password are both required. */
export function validateSignIn(email: string, password: string): Problem | null {
  if (blank(email) || !password) return problem(ERRORS.invalid.title, 'Please enter email and password.');
  return tooLong('Email', email, LIMITS.email) ?? tooLong('Password', password, LIMITS.password) ?? unstorableText('Email', email);
}

/** What a malformed email address is told, on the device and by the server. */
export const EMAIL_FORMAT_MESSAGE = 'Enter an email address like name@example.com.';

/** An email address typed in a form: present, within the limit, shaped like one (the server's schema checks it strictly too), storable. */
export function validateEmailAddress(email: string): Problem | null {
  const trimmed = email.trim();
  if (blank(trimmed)) return problem(ERRORS.invalid.title, 'Enter an email address.');
  const shaped = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(trimmed);
  return (
    tooLong('Email', trimmed, LIMITS.email) ??
    (shaped ? unstorableText('Email', trimmed) : problem(ERRORS.invalid.title, EMAIL_FORMAT_MESSAGE))
  );
}

/** Change email: the new address, and the current password that proves it is the member. */
export function validateChangeEmail(email: string, password: string): Problem | null {
  return (
    validateEmailAddress(email) ??
    (password
      ? tooLong('Password', password, LIMITS.password)
      : problem('Password needed', 'Enter your current password to change your email.'))
  );
}

/** Sign up: name, email and password are all required. */
export function validateSignUp(name: string, email: string, password: string): Problem | null {
  if (blank(name) || blank(email) || !password) return problem(ERRORS.invalid.title, FILL_ALL_FIELDS);
  return (
    tooLong('Name', name, LIMITS.name) ??
    tooLong('Email', email, LIMITS.email) ??
    tooLong('Password', password, LIMITS.password) ??
    unstorableText('Name', name) ??
    unstorableText('Email', email) ??
    validateName(name)
  );
}

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

/** The fewest characters a new password may have (connected mode: the server's accounts; local-only keeps no rule). */
export const MIN_PASSWORD_LENGTH = 10;

/**
 * A new password (an account created on the server, a password changed): at least
 * MIN_PASSWORD_LENGTH characters. The server also refuses a commonly used one (server/lib/password-policy.ts).
 */
export function validateNewPassword(password: string): Problem | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return problem('Password too short', `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`);
  }
  return null;
}

/**
 * A member's name (sign-up, and later profile edits): not blank, within LIMITS.name, storable, and
 * without invisible or direction-changing characters (names.ts), which let one name pass for another.
 */
export function validateName(name: string): Problem | null {
  if (blank(name)) return problem(ERRORS.invalid.title, FILL_ALL_FIELDS);
  const wrong = tooLong('Name', name.trim(), LIMITS.name) ?? unstorableText('Name', name);
  if (wrong) return wrong;
  if (hasInvisible(name)) {
    return problem(
      'Name cannot be used',
      'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
    );
  }
  return null;
}

/**
 * A member's name on a connected server, beyond validateName: the staff's words (admin, moderator,
 * staff, system, Insight Exchange…; names.ts) are refused for members. The admin may use them.
 */
export function validateMemberName(name: string, role: string): Problem | null {
  const wrong = validateName(name);
  if (wrong) return wrong;
  if (role !== 'admin' && passesForStaff(name)) {
    return problem('Name cannot be used', 'This name is kept for the forum’s staff. Choose another one.');
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
