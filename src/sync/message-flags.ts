// The admins' reads of flagged messages (issue 61, connected mode): the open flags (who, why, when;
// never what was said), and one flag's conversation, whose opening the server writes to the staff log.
import { z } from 'zod';
import { createApi, type SyncApi } from './api';

const flagSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  flagger: z.string(),
  reason: z.string(),
  text: z.string(),
  createdAt: z.number(),
});
const listSchema = z.object({ flags: z.array(flagSchema) });
const openedSchema = z.object({
  flag: flagSchema,
  conversation: z.object({
    id: z.string(),
    subject: z.string(),
    participants: z.array(z.object({ id: z.string(), name: z.string(), left: z.boolean() })),
  }),
  messages: z.array(z.object({ id: z.string(), authorId: z.string(), author: z.string(), body: z.string(), createdAt: z.number() })),
});
export type MessageFlag = z.infer<typeof flagSchema>;
export type FlaggedConversation = z.infer<typeof openedSchema>;

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

function sender(api: SyncApi) {
  if (!api.send) throw new Error('This client cannot ask the server for flagged messages.');
  return api.send.bind(api);
}

/** The open flags of messages, newest first. */
export async function listMessageFlags(api: SyncApi = defaultApi()): Promise<MessageFlag[]> {
  return (await sender(api)('GET', '/api/admin/message-flags', undefined, listSchema)).flags;
}

/** One flag's conversation (the server writes its opening to the staff log). */
export function openFlaggedConversation(id: string, api: SyncApi = defaultApi()): Promise<FlaggedConversation> {
  return sender(api)('GET', `/api/admin/message-flags/${encodeURIComponent(id)}`, undefined, openedSchema);
}
