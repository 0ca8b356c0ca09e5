// Reading an operation's payload as it arrived: whatever the envelope let through (text fields
// travel as unknown, so that a bad text is one refusal with the rule's sentence, not a failed push),
// checked by the rules of validation.ts, trimmed. The device's forms call the same rules first.
import type { Category, NewPostFields } from '../post-rules';
import type { FlagReason } from '../moderation';
import { validateCategory, validateFlag, validateName, validateNewPost, validateReason, validateReply, validateTags } from '../validation';
import { check, refuseInput } from './define';

/** Text as sent: a string, or '' for anything else (the rule then says what is missing). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The fields of a new or edited post: title and content (validateNewPost), a category of the six, optional tags; trimmed. */
export function postFields(value: unknown): NewPostFields & { category: Category } {
  const post = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const title = textOf(post.title);
  const content = textOf(post.content);
  check(validateNewPost(title, content));
  check(validateCategory(post.category));
  const fields: NewPostFields & { category: Category } = {
    title: title.trim(),
    content: content.trim(),
    category: post.category as Category,
  };
  if (post.tags !== undefined) {
    check(validateTags(post.tags));
    fields.tags = (post.tags as string[]).map((tag) => tag.trim());
  }
  return fields;
}

/** A reply's text (validateReply), trimmed. */
export function replyText(value: unknown): string {
  const text = textOf(value);
  check(validateReply(text));
  return text.trim();
}

/** A rejection's or hide's reason: absent, null or blank is none (null); else checked (validateReason) and trimmed. */
export function reasonText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') refuseInput({ code: 'invalid', title: 'Error', message: 'A reason is text.' });
  check(validateReason(value));
  return value.trim() || null;
}

/** A flag's reason and the member's words (validateFlag), trimmed. */
export function flagInput(reason: unknown, text: unknown): { reason: FlagReason; text: string } {
  const words = textOf(text);
  check(validateFlag(reason, words));
  return { reason: reason as FlagReason, text: words.trim() };
}

/** A display name (validateName), trimmed. */
export function displayName(value: unknown): string {
  const name = textOf(value);
  check(validateName(name));
  return name.trim();
}
