// Writing the server's conversations and messages of this member into IndexedDB (connected mode,
// protocol 7): a conversation the member left leaves the device with its messages; a message of a
// conversation the device does not hold (or holds as left) is not kept. Runs inside the caller's
// readwrite transaction (OP_TABLES).
import { db } from '../storage/schema';
import type { WireConversation, WireMessage } from '../../shared/protocol';

/**
 * Stores the page's conversations for `owner`; returns how many rows changed. The files of the
 * messages of a conversation the member left are added to `droppedFiles`: their cached copies go
 * once the transaction has committed (sync/forget-revoked.ts), as the server no longer answers them.
 */
export async function storeServerConversations(
  conversations: readonly WireConversation[],
  owner: string,
  droppedFiles: string[] = [],
): Promise<number> {
  let changed = 0;
  for (const { left, lastReadAt, seq, ...conversation } of conversations) {
    const stored = await db.conversations.get(conversation.id);
    if (stored?.seq !== undefined && stored.seq > seq) continue;
    if (left) {
      changed += await dropConversation(conversation.id, droppedFiles);
      continue;
    }
    // A read outstanding here stays read.
    const read = Math.max(lastReadAt ?? 0, stored?.lastReadAt ?? 0) || null;
    await db.conversations.put({ ...conversation, email: owner, lastReadAt: read, left: stored?.left === true, seq });
    changed += 1;
  }
  return changed;
}

/** Stores the page's messages (of conversations held here); returns how many rows changed. */
export async function storeServerMessages(messages: readonly WireMessage[]): Promise<number> {
  let changed = 0;
  // Whether each conversation is held, read once per conversation (a page holds many of its messages).
  const held = new Map<string, boolean>();
  for (const message of messages) {
    let kept = held.get(message.conversationId);
    if (kept === undefined) {
      kept = (await db.conversations.get(message.conversationId)) !== undefined;
      held.set(message.conversationId, kept);
    }
    if (!kept) continue;
    await db.messages.put(message);
    changed += 1;
  }
  return changed;
}

/** Takes a conversation and its messages off the device (their files' addresses into `files`, if given); returns how many rows went. */
export async function dropConversation(id: string, files?: string[]): Promise<number> {
  const messages = () => db.messages.where('[conversationId+createdAt]').between([id, -Infinity], [id, Infinity]);
  if (files) for (const message of await messages().toArray()) for (const file of message.attachments ?? []) files.push(file.sha256);
  const gone = await messages().delete();
  const had = (await db.conversations.get(id)) ? 1 : 0;
  await db.conversations.delete(id);
  return gone + had;
}

/** Takes every conversation and message off the device (a member switch). */
export async function dropAllConversations(): Promise<void> {
  await db.conversations.clear();
  await db.messages.clear();
}
