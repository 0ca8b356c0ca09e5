// The member's conversations as the lists and the header's count read them: on their own, so the
// protected area's frame (the header's Messages count) reaches the forum's first posts without the
// rest of the messages' code (issue 64, item 2). src/db/messages/messages.ts re-exports them.
import { db, type ConversationRow } from '../storage/schema';
import { readStoredSession } from '../members/session';
import { ownMemberId } from '../members/own-id';

/** A conversation as the lists show it: its row, and how many of its messages by others the member has not read. */
export interface ConversationItem extends ConversationRow {
  unread: number;
  /** Who the member writes with: the names of the others in it (the member's own when nobody else is). */
  others: string[];
}

export const messagesIn = (id: string) => db.messages.where('[conversationId+createdAt]').between([id, -Infinity], [id, Infinity]);

/** Messages by others written after the member last read the conversation. */
export async function unreadIn(row: ConversationRow, me: string): Promise<number> {
  const after = row.lastReadAt ?? -Infinity;
  return messagesIn(row.id)
    .filter((message) => message.createdAt > after && message.authorId !== me)
    .count();
}

/** The member's conversations they have not left, newest first (none when signed out). */
export async function listConversations(): Promise<ConversationItem[]> {
  const session = readStoredSession();
  if (!session) return [];
  const me = await ownMemberId(session.email);
  const rows = await db.conversations
    .where('[email+updatedAt]')
    .between([session.email, -Infinity], [session.email, Infinity])
    .reverse()
    .filter((row) => !row.left)
    .toArray();
  return Promise.all(rows.map(async (row) => ({ ...row, unread: await unreadIn(row, me), others: othersIn(row, me) })));
}

function othersIn(row: ConversationRow, me: string): string[] {
  const others = row.participants.filter((participant) => participant.id !== me);
  return (others.length > 0 ? others : row.participants).map((participant) => participant.name || 'A member');
}

/** How many messages the member has not read, in all their conversations (the header's Messages). */
export async function countUnreadMessages(): Promise<number> {
  const items = await listConversations();
  return items.reduce((sum, item) => sum + item.unread, 0);
}
