// Messages (issue 61, item 5): private conversations between 2 to 21 confirmed members, connected
// mode only. A conversation's id and a message's id are UUIDs made on the device (written offline
// like everything else); its participants are public member ids (never emails), fixed when it
// starts; each may leave it. Who reads what: src/shared/visibility.ts (mayReadConversation).
import type { Attachment } from './attachments';
import { ERRORS } from './errors';
import { MEMBER_ID_PATTERN } from './members';
import { LIMITS } from './post-rules';
import { blank, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';
import { validateMentions } from './mentions';

export const MESSAGE_LIMITS = {
  /** Others a conversation may reach (the author comes on top). */
  maxRecipients: 20,
  subject: LIMITS.title,
  body: LIMITS.reply,
} as const;

/** The sentence a member who may not send messages yet reads (PRODUCT.md). */
export const MESSAGES_CLOSED = ERRORS.messages_closed.message;

/** One participant of a conversation: their public id and name, and whether they left it. */
export interface Participant {
  id: string;
  name: string;
  left: boolean;
}

export interface Conversation {
  id: string;
  subject: string;
  /** The public id of the member who started it. */
  authorId: string;
  createdAt: number;
  /** The last message's time (ms). */
  updatedAt: number;
  participants: Participant[];
}

export interface Message {
  id: string;
  conversationId: string;
  /** The author's public id and name. */
  authorId: string;
  author: string;
  /** Markdown, with a reply's length and text checks. */
  body: string;
  createdAt: number;
  /** The files it carries, as a reply's (absent: none). */
  attachments?: Attachment[];
}

/** A conversation's subject: one line, not blank, within a title's length, storable, no hidden characters. */
export function validateSubject(subject: string): Problem | null {
  if (blank(subject)) return problem('Missing Information', 'Please write a subject for your message.');
  return (
    tooLong('Subject', subject.trim(), MESSAGE_LIMITS.subject) ??
    unstorableText('Subject', subject) ??
    hiddenText('Subject', subject, 'line')
  );
}

/** A message's body: a reply's rules, worded for a message. */
export function validateMessageBody(body: string): Problem | null {
  if (blank(body)) return problem('Empty message', 'Please write something before sending your message.');
  return (
    tooLong('Message', body.trim(), MESSAGE_LIMITS.body) ??
    unstorableText('Message', body) ??
    hiddenText('Message', body, 'lines') ??
    validateMentions(body)
  );
}

/**
 * The recipients as sent: a list of 1 to 20 public member ids, each once (a repeat is refused, not
 * dropped: a device never sends one), never only the sender. `ownId`: the sender's id, when known.
 */
export function validateRecipients(value: unknown, ownId?: string): Problem | null {
  if (!Array.isArray(value) || value.length === 0) return problem('No recipient', 'Choose at least one member to write to.');
  if (value.length > MESSAGE_LIMITS.maxRecipients)
    return problem('Too many recipients', `A message can go to at most ${MESSAGE_LIMITS.maxRecipients} members (it has ${value.length}).`);
  if (!value.every((id) => typeof id === 'string' && MEMBER_ID_PATTERN.test(id)))
    return problem('Unknown recipient', 'Choose recipients among the members the To field suggests.');
  if (new Set(value).size !== value.length) return problem('Repeated recipient', 'Each member can be chosen once.');
  if (ownId !== undefined && value.includes(ownId)) return problem('Not to yourself', 'Choose members other than yourself.');
  return null;
}

export { unreadMessagesDescription } from './moderation';
