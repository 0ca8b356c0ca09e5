// The server's text and edits of a post as a row keeps them, apart from the replay (replay.ts) so
// that the operations' store (dexie-store.ts) reads them without loading the replay's in-memory store.
import type { PostRow, ServerFields } from '../storage/schema';

/** The server's text and edits of a post as a row holds them (for ServerState.fields). */
export function fieldsOf(row: Pick<PostRow, keyof ServerFields>): ServerFields {
  return {
    title: row.title,
    content: row.content,
    category: row.category,
    tags: row.tags,
    editedAt: row.editedAt ?? null,
    resubmitted: row.resubmitted ?? false,
    previous: row.previous ?? null,
  };
}
