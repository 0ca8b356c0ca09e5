// What a member wrote in a message the server refused (messages_closed, messages_per_day,
// conversation_not_found once they left elsewhere...) is never lost: a message becomes the draft of
// its conversation's reply box, a new conversation the New message dialog's, each with the refusal's
// sentence. Kept per member in `meta` (another member signing in on the device never reads them); a
// second refusal before the first draft is sent adds its words under the first's.
import { db, type OutboxRow } from '../storage/schema';
import { META_KEY_PREFIXES } from '../contracts';
import { readStoredSession } from '../members/session';
import type { Op } from '../../shared/protocol';

/** A refused message: its words and why the server refused it. */
export interface MessageDraft {
  body: string;
  reason: string;
}

/** A refused new conversation: whom it was to (ids and names), its subject, its words, and why. */
export interface NewMessageDraft extends MessageDraft {
  /** The conversation it would have started (its page says where the draft waits). */
  conversationId: string;
  recipients: { id: string; name: string }[];
  subject: string;
}

const lower = (email: string) => email.trim().toLowerCase();
export const messageDraftKey = (email: string, conversationId: string) =>
  `${META_KEY_PREFIXES.messageDraft}${lower(email)}:${conversationId}`;
export const newMessageDraftKey = (email: string) => `${META_KEY_PREFIXES.newMessageDraft}${lower(email)}`;

const joined = (before: string | undefined, body: string) => (before ? `${before}\n\n${body}` : body);

/**
 * Keeps the words of a refused operation that `creates` a message or a conversation as a draft (inside the
 * caller's transaction, before what it made here is taken away: a new conversation's participants name its
 * recipients). The caller reads `creates` from the operation's definition.
 */
export async function keepRefusedMessage(row: OutboxRow, reason: string, creates: 'message' | 'conversation'): Promise<void> {
  const op = row.op as Op & { conversationId?: unknown; body?: unknown; subject?: unknown; recipients?: unknown };
  if (typeof op.conversationId !== 'string' || typeof op.body !== 'string') return;
  if (creates === 'message') {
    const key = messageDraftKey(row.email, op.conversationId);
    const before = (await db.meta.get(key))?.value as MessageDraft | undefined;
    await db.meta.put({ key, value: { body: joined(before?.body, op.body), reason } satisfies MessageDraft });
  } else {
    const key = newMessageDraftKey(row.email);
    const before = (await db.meta.get(key))?.value as NewMessageDraft | undefined;
    const participants = (await db.conversations.get(op.conversationId))?.participants ?? [];
    const ids = Array.isArray(op.recipients) ? op.recipients.filter((id): id is string => typeof id === 'string') : [];
    const value: NewMessageDraft = {
      conversationId: op.conversationId,
      recipients: ids.map((id) => ({ id, name: participants.find((one) => one.id === id)?.name ?? '' })),
      subject: typeof op.subject === 'string' ? op.subject : '',
      body: joined(before?.body, op.body),
      reason,
    };
    await db.meta.put({ key, value });
  }
}

/** The signed-in member's refused message in conversation `id`, if any. */
export async function readMessageDraft(conversationId: string): Promise<MessageDraft | undefined> {
  const session = readStoredSession();
  if (!session) return undefined;
  return (await db.meta.get(messageDraftKey(session.email, conversationId)))?.value as MessageDraft | undefined;
}

/** The signed-in member's refused new conversation, if any. */
export async function readNewMessageDraft(): Promise<NewMessageDraft | undefined> {
  const session = readStoredSession();
  if (!session) return undefined;
  return (await db.meta.get(newMessageDraftKey(session.email)))?.value as NewMessageDraft | undefined;
}

/** Forgets the member's refused message in conversation `id` (sent again, or discarded). */
export async function clearMessageDraft(conversationId: string): Promise<void> {
  const session = readStoredSession();
  if (session) await db.meta.delete(messageDraftKey(session.email, conversationId));
}

/** Forgets the member's refused new conversation (sent again, or discarded). */
export async function clearNewMessageDraft(): Promise<void> {
  const session = readStoredSession();
  if (session) await db.meta.delete(newMessageDraftKey(session.email));
}
