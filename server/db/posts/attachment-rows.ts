// A post's attachments as rows and on the wire (issue 42): posts.attachments (jsonb, migration 16)
// holds what the server read of each file when the post was made (address, name, type, size, an
// image's pixels); the bytes are in the blob store (server/attachments/storage.ts).
import type { Attachment } from '../../../src/shared/attachments';
import { parsedJson } from '../storage/json-column';

const countOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** An attachments row (or a stored list item) as an Attachment, named `name` when given. */
export function toAttachment(row: Record<string, unknown>, name?: string): Attachment {
  return {
    sha256: String(row.sha256),
    name: name || String(row.name ?? 'file'),
    mime: String(row.mime),
    size: Number(row.size),
    width: countOrNull(row.width),
    height: countOrNull(row.height),
  };
}

/** The posts.attachments column as a list (none: empty). */
export function toWireAttachments(value: unknown): Attachment[] {
  const list = parsedJson(value);
  return Array.isArray(list) ? list.map((item) => toAttachment(item as Record<string, unknown>)) : [];
}
