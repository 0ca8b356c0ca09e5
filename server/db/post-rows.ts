// Posts as rows and as the wire shape: the one mapping between the posts table's columns and the
// WirePost of docs/sync-protocol.md, plus the SQL condition of who may see what.
import type { WirePost } from '../../src/shared/protocol';
import type { Post } from '../../src/shared/post-rules';

export type PostRow = Record<string, unknown>;

/** A posts row as the protocol sends it (numbers as numbers, tags as an array). */
export function toWirePost(row: PostRow): WirePost {
  const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as unknown) : row.tags;
  return {
    id: Number(row.id),
    title: String(row.title),
    content: String(row.content),
    category: String(row.category),
    author: String(row.author),
    authorEmail: String(row.author_email),
    authorRole: String(row.author_role),
    likes: Number(row.likes),
    comments: Number(row.comments),
    views: Number(row.views),
    date: String(row.date),
    isTopContributor: row.is_top_contributor === true,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    status: row.status as WirePost['status'],
    seq: Number(row.seq),
  };
}

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

/**
 * The visibility rule as SQL, with `$admin` (boolean) and `$email` placeholders: approved posts to
 * every member, own posts in every status, others' pending and rejected posts to admins only.
 * `posts` names the posts table in a query that joins another one with an author_email (replies).
 */
export const visibleTo = (admin: string, email: string, posts?: string) => {
  const column = (name: string) => (posts ? `${posts}.${name}` : name);
  return `(${admin}::boolean OR ${column('status')} = 'approved' OR ${column('author_email')} = ${email})`;
};
