import { useLiveQuery } from 'dexie-react-hooks';
import { listConversations, messagesOpen, readConversation } from '../../db/messages/messages';
import { readMessageDraft, readNewMessageDraft } from '../../db/messages/drafts';

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

/** The member's refused message in conversation `id` (null: none), live. */
export function useMessageDraft(id: string) {
  return useLiveQuery(async () => (await readMessageDraft(id)) ?? null, [id]);
}

/** The member's refused new conversation (null: none), live. */
export function useNewMessageDraft() {
  return useLiveQuery(async () => (await readNewMessageDraft()) ?? null, []);
}
