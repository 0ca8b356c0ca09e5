// Posts that arrive from outside IndexedDB (the legacy `posts` mirror, a backup file) are
// untrusted: this module turns them into clean Posts, merges them with stored ones, and writes
// posts back out with exactly the fields of SPEC §3.

import { DEFAULT_CATEGORY, POST_FIELDS, POST_STATUSES, type Post, type PostStatus } from '../types';

export type ParsedPost = { ok: true; post: Post } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER) : 0;

/** Validates and cleans one untrusted post; the id, title and content must be usable. */
export function parsePost(value: unknown): ParsedPost {
  if (!isRecord(value)) return { ok: false, reason: 'is not an object' };
  const { id } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    return { ok: false, reason: 'has no valid id (a positive whole number)' };
  }
  if (typeof value.title !== 'string') return { ok: false, reason: `(id ${id}) has no title` };
  if (typeof value.content !== 'string') return { ok: false, reason: `(id ${id}) has no content` };
  const status = POST_STATUSES.includes(value.status as PostStatus) ? (value.status as PostStatus) : 'pending';
  const tags = Array.isArray(value.tags) ? value.tags.filter((tag): tag is string => typeof tag === 'string') : [];
  return {
    ok: true,
    post: {
      id,
      title: value.title,
      content: value.content,
      category: text(value.category, DEFAULT_CATEGORY) || DEFAULT_CATEGORY,
      author: text(value.author, 'Unknown member'),
      authorEmail: text(value.authorEmail, ''),
      authorRole: text(value.authorRole, 'user'),
      likes: count(value.likes),
      comments: count(value.comments),
      views: count(value.views),
      date: text(value.date, ''),
      isTopContributor: value.isTopContributor === true,
      tags,
      status,
    },
  };
}

/**
 * The changes that merging `incoming` into `stored` makes: higher counters win and a reviewed
 * status wins over pending; nothing else changes. `null` when the stored post already covers it.
 */
export function mergeChanges(stored: Post, incoming: Post): Partial<Post> | null {
  const changes: Partial<Post> = {};
  if (incoming.likes > stored.likes) changes.likes = incoming.likes;
  if (incoming.comments > stored.comments) changes.comments = incoming.comments;
  if (incoming.views > stored.views) changes.views = incoming.views;
  if (stored.status === 'pending' && incoming.status !== 'pending') changes.status = incoming.status;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** A copy with exactly the fields of SPEC §3, in their documented order (internal fields dropped). */
export function toPost(row: Post): Post {
  const post = {} as Record<string, unknown>;
  for (const field of POST_FIELDS) post[field] = row[field];
  return post as unknown as Post;
}
