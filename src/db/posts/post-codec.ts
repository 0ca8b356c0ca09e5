// Posts that arrive from outside IndexedDB (the legacy `posts` mirror, a backup file) are
// untrusted: this module turns them into clean Posts, merges them with stored ones, and writes
// posts back out with exactly the fields of product.md §3.

import { LIMITS, normalizeEmail } from '../../shared/post-rules';
import { tooLong } from '../../shared/validation';
import { POST_FIELDS } from '../contracts';
import { DEFAULT_CATEGORY, POST_STATUSES, type Post, type PostStatus } from '../types';

/**
 * The largest id accepted from outside (1 January 2100 as a millisecond timestamp). Ids are
 * creation timestamps; one near the largest safe integer would leave no room above it.
 */
export const MAX_POST_ID = Date.UTC(2100, 0, 1);

/** The longest category (or legacy `date` text) accepted from outside. */
export const MAX_LABEL_CHARS = 60;

export type ParsedPost = { ok: true; post: Post } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER) : 0;

/** Validates and cleans one untrusted post; the id, title and content must be usable. */
export function parsePost(value: unknown): ParsedPost {
  if (!isRecord(value)) return { ok: false, reason: 'is not an object' };
  const { id } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || id > MAX_POST_ID) {
    return { ok: false, reason: 'has no valid id (a positive whole number, at most a timestamp of the year 2100)' };
  }
  if (typeof value.title !== 'string') return { ok: false, reason: `(id ${id}) has no title` };
  if (typeof value.content !== 'string') return { ok: false, reason: `(id ${id}) has no content` };
  // The app's own limits apply to what comes in: a too-long field is refused, never cut.
  const problem =
    tooLong('Title', value.title, LIMITS.title) ??
    tooLong('Content', value.content, LIMITS.content) ??
    tooLong('Author', text(value.author, ''), LIMITS.name) ??
    tooLong('Author email', text(value.authorEmail, ''), LIMITS.email) ??
    tooLong('Category', text(value.category, ''), MAX_LABEL_CHARS) ??
    tooLong('Date', text(value.date, ''), MAX_LABEL_CHARS);
  if (problem) return { ok: false, reason: `(id ${id}) is refused: ${problem.message.replace(/\.$/u, '')}` };
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
      // Compared the way sign-in compares emails, so My Posts and the member's export find it.
      authorEmail: normalizeEmail(text(value.authorEmail, '')),
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

/** A copy with exactly the fields of product.md §3, in their documented order (internal fields dropped). */
export function toPost(row: Post): Post {
  const post = {} as Record<string, unknown>;
  for (const field of POST_FIELDS) post[field] = row[field];
  return post as unknown as Post;
}
