// Reading an operation's payload as it arrived: whatever the envelope let through (text fields
// travel as unknown, so that a bad text is one refusal with the rule's sentence, not a failed push),
// checked by the rules of validation.ts, trimmed. The device's forms call the same rules first.
import { parseTags, type NewPostFields } from '../post-rules';
import type { FlagReason } from '../moderation';
import { validateCategory, validateFlag, validateName, validateNewPost, validateReason, validateReply, validateTags } from '../validation';
import { check, refuseInput } from './define';
import { POLL_LIMITS, validatePoll, type PollDefinition } from '../polls';
import { cleanFileName, validateAttachments, type Attachment } from '../attachments';

/** Text as sent: a string, or '' for anything else (the rule then says what is missing). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The fields of a new or edited post: title and content (validateNewPost), a category's id, optional tags; trimmed. */
export function postFields(value: unknown): NewPostFields {
  const post = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const title = textOf(post.title);
  const content = textOf(post.content);
  check(validateNewPost(title, content));
  check(validateCategory(post.category));
  const fields: NewPostFields = {
    title: title.trim(),
    content: content.trim(),
    category: post.category as string,
  };
  if (post.tags !== undefined) {
    check(validateTags(post.tags));
    // As the composer's Tags field reads them (parseTags): a comma parts two tags, a leading "#"
    // goes, a repeat in any case is kept once (a fourth attack test stored ten "dup" and "a,b").
    const tags = parseTags((post.tags as string[]).join(','));
    check(validateTags(tags));
    fields.tags = tags;
  }
  if (post.poll !== undefined && post.poll !== null) fields.poll = pollFields(post.poll);
  if (post.attachments !== undefined && post.attachments !== null) {
    const attachments = attachmentFields(post.attachments);
    if (attachments.length > 0) fields.attachments = attachments;
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

/**
 * A poll as sent with a new post: an object with a question, options (text), `multiple` and
 * `closesAt` (ms or null), checked by validatePoll (a blank option is refused, never dropped: a poll
 * is kept as its author wrote it) and trimmed. The op checks the closing time against its own time
 * when it runs.
 */
export function pollFields(value: unknown): PollDefinition {
  const poll = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const options = Array.isArray(poll.options) ? poll.options.slice(0, POLL_LIMITS.maxOptions + 1).map(textOf) : [];
  const closesAt = poll.closesAt === undefined || poll.closesAt === null ? null : typeof poll.closesAt === 'number' ? poll.closesAt : NaN;
  const definition: PollDefinition = { question: textOf(poll.question), options, multiple: poll.multiple === true, closesAt };
  check(validatePoll(definition));
  return {
    ...definition,
    question: definition.question.trim(),
    options: options.map((option) => option.trim()),
  };
}

/** A ballot as sent: a list of option indexes (checked against the poll by validateBallot). */
export const ballotChoices = (value: unknown): number[] =>
  Array.isArray(value) ? value.slice(0, POLL_LIMITS.maxOptions + 1).map((choice) => (typeof choice === 'number' ? choice : NaN)) : [];

/**
 * Attachments as sent with a new post: at most 10 SHA-256 addresses, each once (validateAttachments),
 * with the names the device gave, cleaned as an upload's are (cleanFileName: a name with nothing
 * readable left is blank, and the store names the file as it was uploaded).
 */
export function attachmentFields(value: unknown): Pick<Attachment, 'sha256' | 'name'>[] {
  check(validateAttachments(value));
  return (value as Record<string, unknown>[]).map((item) => ({
    sha256: item.sha256 as string,
    name: cleanFileName(item.name),
  }));
}

/** The SHA-256 of each file a list of attachments names, as it travels (anything else in it is passed by). */
export function namedFiles(list: unknown): string[] {
  return Array.isArray(list)
    ? list.flatMap((item) => {
        const sha256 = item !== null && typeof item === 'object' ? (item as { sha256?: unknown }).sha256 : undefined;
        return typeof sha256 === 'string' ? [sha256] : [];
      })
    : [];
}
