// The signed-in member's messages on this device (issue 61, connected mode): their conversations,
// newest first, each with its unread count; one conversation's messages; the header's unread count.
// Writing is the messages operations (src/shared/ops/messages.ts), run here by ops/run.ts and queued
// for the server like every other. Dexie's live queries show them in every tab.
import { db, type ConversationRow, type MessageRow } from '../storage/schema';
import { readStoredSession } from '../members/session';
import { requireSession } from '../members/guards';
import { ownMemberId } from '../members/own-id';
import { messagesIn, unreadIn } from './inbox';
import { runOperation } from '../ops/run-later';
import { newOperationId } from '../ops/uuid';
import type { FlagReason } from '../../shared/moderation';
import type { Attachment } from '../../shared/attachments';

export { countUnreadMessages, listConversations, type ConversationItem } from './inbox';

/** One conversation of the member's (undefined: not here, another member's, or left), and its messages, oldest first. */
export async function readConversation(id: string): Promise<{ conversation: ConversationRow; messages: MessageRow[] } | undefined> {
  const session = readStoredSession();
  const row = await db.conversations.get(id);
  if (!session || !row || row.email !== session.email || row.left) return undefined;
  return { conversation: row, messages: await messagesIn(id).toArray() };
}

/**
 * Whether messages are open to the member as far as this device knows: one of their posts approved,
 * or one of their replies visible on the forum (the server's word decides: `messages_closed`).
 */
export async function messagesOpen(): Promise<boolean> {
  const session = readStoredSession();
  if (!session) return false;
  if (session.role === 'admin') return true;
  const approved = await db.posts
    .where('[authorEmail+id]')
    .between([session.email, -Infinity], [session.email, Infinity])
    .filter((post) => post.status === 'approved')
    .first();
  if (approved) return true;
  const me = await ownMemberId(session.email);
  const replies = await db.replies
    .where('authorId')
    .equals(me)
    .filter((reply) => reply.state === 'visible')
    .toArray();
  for (const reply of replies) if ((await db.posts.get(reply.postId))?.status === 'approved') return true;
  return false;
}

/** The files a message names, as a reply's: their address and name (uploaded before it when it is sent). */
const named = (attachments: readonly Pick<Attachment, 'sha256' | 'name'>[]) =>
  attachments.length > 0 ? { attachments: attachments.map(({ sha256, name }) => ({ sha256, name })) } : {};

/**
 * Starts a conversation with `recipients` (public ids, with the names the To field showed); returns
 * its id. The device cannot know every member: the names it was shown stand for them here until the
 * server's conversation comes back with its own (and a refused one's draft names them).
 */
export async function startConversation(
  recipients: readonly { id: string; name: string }[],
  subject: string,
  body: string,
  attachments: readonly Pick<Attachment, 'sha256' | 'name'>[] = [],
): Promise<string> {
  requireSession();
  const conversationId = newOperationId();
  await runOperation('startConversation', {
    conversationId,
    recipients: recipients.map((one) => one.id),
    subject,
    body,
    ...named(attachments),
  });
  const names = new Map(recipients.map((one) => [one.id, one.name]));
  await db.conversations
    .where('id')
    .equals(conversationId)
    .modify((row) => {
      if (row.seq !== undefined) return;
      row.participants = row.participants.map((one) => (one.name ? one : { ...one, name: names.get(one.id) ?? '' }));
    });
  return conversationId;
}

/** Sends a message in a conversation of the member's, with the files attached here (kept on the device until sent). */
export async function sendMessage(
  conversationId: string,
  body: string,
  attachments: readonly Pick<Attachment, 'sha256' | 'name'>[] = [],
): Promise<void> {
  requireSession();
  await runOperation('sendMessage', { conversationId, body, ...named(attachments) });
}

/** Marks a conversation read, when it has something unread (nothing is queued otherwise). */
export async function markConversationRead(conversationId: string): Promise<void> {
  const session = readStoredSession();
  const row = await db.conversations.get(conversationId);
  if (!session || !row || row.email !== session.email || row.left) return;
  if ((await unreadIn(row, await ownMemberId(session.email))) === 0) return;
  await runOperation('readMessages', { conversationId });
}

/** Leaves a conversation: it leaves the lists here at once, and every device of the member's with the next pull. */
export async function leaveConversation(conversationId: string): Promise<void> {
  requireSession();
  await runOperation('leaveConversation', { conversationId });
}

/** Flags another's message to the admins (they then read its conversation, written to the staff log). */
export async function flagMessage(messageId: string, reason: FlagReason, text: string): Promise<void> {
  requireSession();
  await runOperation('flagMessage', { messageId, reason, ...(text ? { text } : {}) });
}

/** Admins: dismisses the open flags of a message (the Flagged messages panel's "Dismiss"; the staff log keeps it). */
export async function dismissMessageFlags(messageId: string): Promise<void> {
  requireSession();
  await runOperation('dismissMessageFlags', { messageId });
}

/** The signed-in member's public id here (undefined when signed out): the screens tell their own messages by it. */
export async function ownMemberIdOfSession(): Promise<string | undefined> {
  const session = readStoredSession();
  return session ? ownMemberId(session.email) : undefined;
}
