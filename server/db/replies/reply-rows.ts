// Replies as rows and as the wire shape: the one mapping between the replies table's columns and the
// WireReply of docs/sync-protocol.md, and what each viewer may read of a reply. A reply is visible
// to whoever may see its post (replies only exist on approved posts); a hidden reply's text reaches
// admins only, and a deleted one has none left.
import type { Reply } from '../../../src/shared/post-rules';
import type { WireReply } from '../../../src/shared/protocol';
import { wireAuthor } from '../members/authors';
import { toWireAttachments } from '../posts/attachment-rows';
import type { Attachment } from '../../../src/shared/attachments';
import { mayReadReply, replyReadableSql, sqlViewer } from '../../../src/shared/visibility';

export type ReplyRow = Record<string, unknown>;

/** The text `viewerIsAdmin` may read of a reply in `state` (mayReadReply): none once deleted, none while hidden unless an admin. */
export const readableContent = (state: unknown, content: unknown, viewerIsAdmin: boolean): string =>
  mayReadReply({ state: String(state) }, { email: '', role: viewerIsAdmin ? 'admin' : 'user' }) ? String(content) : '';

/**
 * A replies row as the protocol sends it to a viewer (an admin or not, of `viewerEmail`): numbers as
 * numbers, the text as that viewer may read it, the author's email to the author and admins only
 * (blank for everyone else; withAuthors sets the author's name, role and id first).
 */
export function toWireReply(row: ReplyRow, viewerIsAdmin: boolean, viewerEmail?: string): WireReply {
  return {
    id: String(row.id),
    postId: Number(row.post_id),
    ...wireAuthor(row, viewerIsAdmin, viewerEmail),
    content: readableContent(row.state, row.content, viewerIsAdmin),
    quoteId: row.quote_id === null || row.quote_id === undefined ? null : String(row.quote_id),
    createdAt: Number(row.created_at),
    editedAt: row.edited_at === null || row.edited_at === undefined ? null : Number(row.edited_at),
    state: row.state as WireReply['state'],
    ...readableAttachments(row, viewerIsAdmin),
    seq: Number(row.seq),
  };
}

/** A reply's files as a viewer may see them: as its text (none once deleted; a hidden one's to admins only); absent for none. */
function readableAttachments(row: ReplyRow, viewerIsAdmin: boolean): { attachments?: Attachment[] } {
  if (readableContent(row.state, 'x', viewerIsAdmin) === '') return {};
  const attachments = toWireAttachments(row.attachments);
  return attachments.length > 0 ? { attachments } : {};
}

/** A replies row as the operations read it (src/shared/ops/store.ts): its whole text, whoever asks. */
export function toReply(row: ReplyRow): Reply {
  const { seq: _seq, authorId: _authorId, ...reply } = toWireReply(row, true, String(row.author_email));
  return { ...reply, content: String(row.content) };
}

/**
 * The replies columns with the text as `$admin` (a boolean placeholder) may read it, for a SELECT
 * from `replies` named `alias`: the hidden text of a reply never leaves the database for a member.
 */
export const readableReplyColumns = (alias: string, admin: string) => {
  const readable = replyReadableSql(sqlViewer(admin, "''"), alias);
  return `${alias}.id, ${alias}.post_id, ${alias}.author, ${alias}.author_email, ${alias}.author_role,
   CASE WHEN ${readable} THEN ${alias}.content ELSE '' END AS content,
   ${alias}.quote_id, ${alias}.created_at, ${alias}.edited_at, ${alias}.state, ${alias}.seq,
   CASE WHEN ${readable} THEN ${alias}.attachments END AS attachments`;
};

export const INSERT_REPLY = `INSERT INTO replies (id, post_id, author, author_email, author_role, content, quote_id,
  created_at, edited_at, state, seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  ON CONFLICT (id) DO NOTHING RETURNING *`;

/** The parameters of INSERT_REPLY for `reply` at change number `seq`. */
export function insertReplyParams(reply: Reply, seq: number): unknown[] {
  return [
    reply.id,
    reply.postId,
    reply.author,
    reply.authorEmail,
    reply.authorRole,
    reply.content,
    reply.quoteId,
    reply.createdAt,
    reply.editedAt,
    reply.state,
    seq,
  ];
}
