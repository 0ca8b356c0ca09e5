// Messages (issue 61) as the wire sends them: a conversations row with the viewer's own place in it
// (server/db/sync/changes.ts reads it for the viewer only), and a messages row.
import type { WireConversation, WireMessage } from '../../../src/shared/protocol';
import type { Attachment } from '../../../src/shared/attachments';
import { parsedJson } from '../storage/json-column';

/** A messages row's files (a jsonb column; PGlite may hand it as text): `{ attachments }`, or nothing when none. */
export function messageAttachments(value: unknown): { attachments?: Attachment[] } {
  const list = parsedJson(value) as Attachment[] | null;
  return Array.isArray(list) && list.length > 0 ? { attachments: list } : {};
}

/** A conversations row (with the viewer's place in it) as the wire sends it to that participant. */
export const toWireConversation = (row: Record<string, unknown>): WireConversation => ({
  id: String(row.id),
  subject: String(row.subject),
  authorId: String(row.author_id),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  participants: ((row.participants ?? []) as { id: unknown; name: unknown; left: unknown }[]).map((one) => ({
    id: String(one.id),
    name: String(one.name),
    left: one.left === true,
  })),
  lastReadAt: row.last_read_at === null || row.last_read_at === undefined ? null : Number(row.last_read_at),
  left: row.left === true,
  seq: Number(row.seq),
});

/** A messages row as the wire sends it to a participant. */
export const toWireMessage = (row: Record<string, unknown>): WireMessage => ({
  id: String(row.id),
  conversationId: String(row.conversation_id),
  authorId: String(row.author_id),
  author: String(row.author),
  body: String(row.body),
  createdAt: Number(row.created_at),
  ...messageAttachments(row.attachments),
  seq: Number(row.seq),
});
