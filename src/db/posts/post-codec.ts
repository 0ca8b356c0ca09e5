// Posts and replies that arrive from outside IndexedDB (the legacy `posts` mirror, a backup file)
// are untrusted: this module turns them into clean Posts and Replies, merges posts with stored
// ones, and writes them back out with exactly the fields of product.md §3 (posts) and of the
// shared Reply shape (replies).

import { LIMITS, normalizeEmail, REPLY_STATES } from '../../shared/post-rules';
import { tooLong, validateReply } from '../../shared/text-checks';
import { POST_FIELDS, REPLY_FIELDS } from '../contracts';
import { DEFAULT_CATEGORY, POST_STATUSES, type Post, type PostStatus, type Reply, type ReplyState } from '../types';

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
 * The changes that merging `incoming` into `stored` makes: higher likes and views win and a
 * reviewed status wins over pending; nothing else changes. `comments` never comes from outside:
 * it is the number of the post's visible replies on this device (mergePosts recounts it).
 * `null` when the stored post already covers it.
 */
export function mergeChanges(stored: Post, incoming: Post): Partial<Post> | null {
  const changes: Partial<Post> = {};
  if (incoming.likes > stored.likes) changes.likes = incoming.likes;
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

/** The longest reply id accepted from outside (this build's ids are 36-character UUIDs). */
export const MAX_REPLY_ID_CHARS = 64;

export type ParsedReply = { ok: true; reply: Reply } | { ok: false; reason: string };

/** A time a reply may carry: from the epoch up to MAX_POST_ID (a date beyond cannot even be shown). */
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_POST_ID;

/**
 * Validates and cleans one untrusted reply (a backup's). Its text meets the reply rule of the
 * forms (validateReply: not empty, at most LIMITS.reply, storable); a hidden or deleted reply may
 * have none (a member's copy of a hidden reply, a deleted one). A deleted reply's text is dropped,
 * the others are trimmed as the reply box trims them. Whether its post exists is the caller's check.
 */
export function parseReply(value: unknown): ParsedReply {
  if (!isRecord(value)) return { ok: false, reason: 'is not an object' };
  const { id } = value;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_REPLY_ID_CHARS) {
    return { ok: false, reason: `has no valid id (a text of 1 to ${MAX_REPLY_ID_CHARS} characters)` };
  }
  const { postId, state, content, quoteId = null, editedAt = null } = value;
  if (typeof postId !== 'number' || !Number.isSafeInteger(postId) || postId <= 0 || postId > MAX_POST_ID) {
    return { ok: false, reason: `(id ${id}) has no valid post id` };
  }
  if (!REPLY_STATES.includes(state as ReplyState)) return { ok: false, reason: `(id ${id}) has no valid state` };
  if (typeof content !== 'string') return { ok: false, reason: `(id ${id}) has no content` };
  if (!isTime(value.createdAt) || (editedAt !== null && !isTime(editedAt))) {
    return { ok: false, reason: `(id ${id}) has no valid time (createdAt and editedAt are milliseconds since 1970)` };
  }
  if (quoteId !== null && typeof quoteId !== 'string') return { ok: false, reason: `(id ${id}) has no valid quote (a reply id or null)` };
  const textless = state !== 'visible' && content.trim() === '';
  const problem =
    (textless ? null : validateReply(content)) ??
    tooLong('Author', text(value.author, ''), LIMITS.name) ??
    tooLong('Author email', text(value.authorEmail, ''), LIMITS.email) ??
    tooLong('Author role', text(value.authorRole, ''), MAX_LABEL_CHARS);
  if (problem) return { ok: false, reason: `(id ${id}) is refused: ${problem.message.replace(/\.$/u, '')}` };
  return {
    ok: true,
    reply: {
      id,
      postId,
      author: text(value.author, 'Unknown member'),
      authorEmail: normalizeEmail(text(value.authorEmail, '')),
      authorRole: text(value.authorRole, 'user'),
      content: state === 'deleted' ? '' : content.trim(),
      quoteId,
      createdAt: value.createdAt,
      editedAt,
      state: state as ReplyState,
    },
  };
}

/** A copy with exactly the fields of a Reply, in their documented order (a row's bookkeeping dropped). */
export function toReply(row: Reply): Reply {
  const reply = {} as Record<string, unknown>;
  for (const field of REPLY_FIELDS) reply[field] = row[field];
  return reply as unknown as Reply;
}

/** Folds duplicates of one id into one post, by the same rule as a merge with a stored post. */
export function dedupePosts(posts: readonly Post[]): Post[] {
  const byId = new Map<number, Post>();
  for (const post of posts) {
    const seen = byId.get(post.id);
    byId.set(post.id, seen ? { ...seen, ...(mergeChanges(seen, post) ?? {}) } : post);
  }
  return [...byId.values()];
}
