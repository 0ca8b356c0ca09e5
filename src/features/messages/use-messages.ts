import { useLiveQuery } from 'dexie-react-hooks';
import { countUnreadMessages, listConversations, messagesOpen, readConversation } from '../../db/messages/messages';

/** The member's conversations, newest first, live in every tab. */
export function useConversations() {
  return useLiveQuery(() => listConversations(), []);
}

/** One conversation and its messages (null: not on this device for this member), live. */
export function useConversation(id: string) {
  return useLiveQuery(async () => (await readConversation(id)) ?? null, [id]);
}

/** Whether messages are open to the member as far as this device knows. */
export function useMessagesOpen() {
  return useLiveQuery(() => messagesOpen(), []);
}

/** How many messages the member has not read (the header's Messages). */
export function useUnreadMessages(enabled = true): number | undefined {
  return useLiveQuery(() => (enabled ? countUnreadMessages() : undefined), [enabled]);
}
