// Posts as rows and as the wire shape: the one mapping between the posts table's columns and the
// WirePost of docs/sync-protocol.md, what each viewer may read of a post (the version an edit
// replaced reaches admins only), plus the SQL condition of who may see what.
import type { OpPost } from '../../../src/shared/ops/store';
import type { WirePost } from '../../../src/shared/protocol';
import type { Post, PostVersion } from '../../../src/shared/post-rules';
import type { UserRow } from '../members/accounts';
import { wireAuthor } from '../members/authors';
import type { Sql } from '../storage/adapter';
import { toWirePoll } from './poll-rows';
import { parsedJson } from '../storage/json-column';
import { toWireAttachments } from './attachment-rows';
import {
  mayReadPrevious,
  mayReadReason,
  postVisibleSql,
  previousReadableSql,
  reasonReadableSql,
  sqlViewer,
  viewerParams,
  type Viewer,
} from '../../../src/shared/visibility';

export type PostRow = Record<string, unknown>;

const textList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The `previous` column as a PostVersion, or null. */
function toPostVersion(value: unknown): PostVersion | null {
  const version = parsedJson(value) as Record<string, unknown> | null | undefined;
  if (!version || typeof version !== 'object') return null;
  return {
    title: String(version.title),
    content: String(version.content),
    category: String(version.category),
    tags: textList(version.tags),
    editedAt: msOrNull(version.editedAt),
  };
}

/**
 * A posts row as the protocol sends it to a viewer (an admin or not, of `viewerEmail`): numbers as
 * numbers, tags as an array, `previous` (the text an edit replaced) for admins only, and `reason`
 * (of a rejection or hide) and the author's email for admins and the post's author only (null and
 * blank for everyone else). The author's name, role and id are the row's: withAuthors (members/
 * authors.ts) sets them from the account first.
 */
export function toWirePost(row: PostRow, viewerIsAdmin: boolean, viewerEmail?: string): WirePost {
  const viewer: Viewer =
    viewerEmail === undefined && !viewerIsAdmin ? null : { email: viewerEmail ?? '', role: viewerIsAdmin ? 'admin' : 'user' };
  const readsReason = mayReadReason({ authorEmail: String(row.author_email) }, viewer);
  return {
    id: Number(row.id),
    title: String(row.title),
    content: String(row.content),
    category: String(row.category),
    ...wireAuthor(row, viewerIsAdmin, viewerEmail),
    likes: Number(row.likes),
    comments: Number(row.comments),
    views: Number(row.views),
    date: String(row.date),
    isTopContributor: row.is_top_contributor === true,
    tags: textList(parsedJson(row.tags)),
    status: row.status as WirePost['status'],
    editedAt: msOrNull(row.edited_at),
    resubmitted: row.resubmitted === true,
    previous: mayReadPrevious(viewer) ? toPostVersion(row.previous) : null,
    reason: readsReason && row.reason !== null && row.reason !== undefined ? String(row.reason) : null,
    poll: toWirePoll(row),
    attachments: toWireAttachments(row.attachments),
    seq: Number(row.seq),
  };
}

/** A posts row as the operations read it (src/shared/ops/store.ts): every field, whoever asks. */
export function toOpPost(row: PostRow): OpPost {
  const { seq: _seq, authorId: _authorId, poll, attachments, ...post } = toWirePost(row, true, String(row.author_email));
  const op: OpPost = poll ? { ...post, poll } : post;
  if (attachments.length > 0) op.attachments = attachments;
  if (row.submitted_at !== null && row.submitted_at !== undefined) op.submittedAt = Number(row.submitted_at);
  if (row.reviewed_at !== null && row.reviewed_at !== undefined) op.reviewedAt = Number(row.reviewed_at);
  return op;
}

/** The `previous` column to write for `version` (a post's replaced text, or none). */
export const previousParam = (version: PostVersion | null | undefined): string | null => (version ? JSON.stringify(version) : null);

/**
 * The posts columns as `$admin` (a boolean placeholder) of `$email` may read them, for a SELECT
 * from `posts` named `alias`: the replaced text of an edited post never leaves the database for a
 * member, nor a rejection's reason for anyone but its author and admins (src/shared/visibility.ts).
 */
export const readablePostColumns = (alias: string, admin: string, email: string) =>
  `${alias}.id, ${alias}.title, ${alias}.content, ${alias}.category, ${alias}.author, ${alias}.author_email,
   ${alias}.author_role, ${alias}.likes, ${alias}.comments, ${alias}.views, ${alias}.date, ${alias}.is_top_contributor,
   ${alias}.tags, ${alias}.status, ${alias}.edited_at, ${alias}.resubmitted, ${alias}.poll, ${alias}.attachments,
   CASE WHEN ${previousReadableSql(sqlViewer(admin, email))} THEN ${alias}.previous END AS previous,
   CASE WHEN ${reasonReadableSql(sqlViewer(admin, email), alias)} THEN ${alias}.reason END AS reason, ${alias}.seq`;

export const INSERT_POST = `INSERT INTO posts (id, title, content, category, author, author_email, author_role,
  likes, comments, views, date, is_top_contributor, tags, status, seq)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15) RETURNING *`;

/** The parameters of INSERT_POST for `post` at change number `seq`. */
export function insertParams(post: Post, seq: number): unknown[] {
  return [
    post.id,
    post.title,
    post.content,
    post.category,
    post.author,
    post.authorEmail,
    post.authorRole,
    post.likes,
    post.comments,
    post.views,
    post.date,
    post.isTopContributor,
    JSON.stringify(post.tags),
    post.status,
    seq,
  ];
}

/** The post `postId` if `user` may see it (a deleted post is no longer in `posts`). */
export async function findVisiblePost(sql: Sql, user: UserRow, postId: number): Promise<PostRow | undefined> {
  const [post] = await sql.query(`SELECT * FROM posts WHERE id = $1 AND ${postVisibleSql(sqlViewer('$2', '$3'))}`, [
    postId,
    ...viewerParams(user),
  ]);
  return post;
}
