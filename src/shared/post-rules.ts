// The post rules that the app and the server share: categories, statuses and the length limits
// of the forms. One source, imported by src/db (the device) and server/ (the forum's server).
import type { Poll, PollDefinition } from './polls';
import type { Attachment } from './attachments';
import { maySeePost, type SeenPost } from './visibility';

export const CATEGORIES = ['Quantitative', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices', 'Case Studies'] as const;

export type Category = (typeof CATEGORIES)[number];

export const POST_STATUSES = ['pending', 'approved', 'rejected'] as const;

export type PostStatus = (typeof POST_STATUSES)[number];

/** A post with exactly the fields of the product rules; this is also the shape of the `posts` mirror. */
export interface Post {
  id: number;
  title: string;
  content: string;
  category: string;
  author: string;
  authorEmail: string;
  authorRole: string;
  likes: number;
  comments: number;
  views: number;
  date: string;
  isTopContributor: boolean;
  tags: string[];
  status: PostStatus;
}

/** A version of a post's text: the one an edit replaced. */
export interface PostVersion {
  title: string;
  content: string;
  category: string;
  tags: string[];
  /** When this version itself was written by an edit (ms since the epoch), or null for the original. */
  editedAt: number | null;
}

/**
 * What writing adds to a post beyond the fields of product.md §3. The device and the server keep
 * them; the `posts` mirror and backups do not (they keep exactly POST_FIELDS).
 */
export interface PostEdits {
  /** When its author last edited it while it was approved (ms since the epoch): it then shows "edited". */
  editedAt?: number | null;
  /** True from the edit that sent a rejected post back to review until its next review ("Resubmitted" in the queue). */
  resubmitted?: boolean;
  /** Admins only: the post as it was before its last edit while approved (null for members, and before any). */
  previous?: PostVersion | null;
}

/** A post's poll (issue 42): none (absent or null) on most posts. Not a `posts` mirror field. */
export interface PostPoll {
  poll?: Poll | null;
}

/** A post's attachments (issue 42): files by content address; none (absent or empty) on most posts. Not a `posts` mirror field. */
export interface PostAttachments {
  attachments?: Attachment[];
}

/** Someone who acts on a post or reply: their email and role (and, on the server, the ids of the groups they are in). */
export interface Actor {
  email: string;
  role: string;
  /** The groups they are in (group_members.in_group): private categories' posts (visibility.ts); absent: none. */
  groups?: readonly string[];
}

/** Who may see a post: the one visibility rule (src/shared/visibility.ts, maySeePost), for an actor. */
export const maySee = (post: Pick<Post, 'status' | 'authorEmail'> & Pick<SeenPost, 'seeGroups'>, actor: Actor): boolean =>
  maySeePost(post, actor);

/** Only its author edits a post (in every status). */
export const mayEditPost = (post: Pick<Post, 'authorEmail'>, actor: Actor): boolean => post.authorEmail === actor.email;

/** Its author or an admin deletes a post (in every status). */
export const mayDeletePost = (post: Pick<Post, 'authorEmail'>, actor: Actor): boolean =>
  post.authorEmail === actor.email || actor.role === 'admin';

/** Its author or an admin deletes a reply; only its author edits one (reply rules). */
export const mayDeleteReply = (reply: Pick<Reply, 'authorEmail'>, actor: Actor): boolean =>
  reply.authorEmail === actor.email || actor.role === 'admin';

/**
 * The one rule of an edit, on the device and the server: the new text replaces the old; a rejected
 * post goes back to review (pending, resubmitted); an approved post stays approved, is marked
 * edited at `now` and keeps the version it replaced in `previous`; a pending post stays pending.
 * `fields` are checked and trimmed by the caller (validateNewPost); tags stay unless given.
 */
export function editedPost<P extends Post & PostEdits>(post: P, fields: NewPostFields, now: number): P {
  const edited: P = { ...post, title: fields.title, content: fields.content, category: fields.category, tags: fields.tags ?? post.tags };
  if (post.status === 'rejected') return { ...edited, status: 'pending', resubmitted: true };
  if (post.status === 'approved') {
    const previous: PostVersion = {
      title: post.title,
      content: post.content,
      category: post.category,
      tags: post.tags,
      editedAt: post.editedAt ?? null,
    };
    return { ...edited, editedAt: now, previous };
  }
  return edited;
}

/** How long a deletion waits before it is sent, so that Undo changes nothing anywhere (ms). */
export const UNDO_WINDOW_MS = 5_000;

/** The signed-in member a new post is written by (the device's session, the server's account). */
export interface PostAuthor {
  email: string;
  name: string;
  role: string;
}

/** What a member writes in a new post (trimmed and checked by the caller). */
export interface NewPostFields {
  title: string;
  content: string;
  category: string;
  tags?: string[];
  /** A poll, only when the post is created (an edit keeps the poll as it is). */
  poll?: PollDefinition;
  /** Attachments, only when the post is created (an edit keeps them): their addresses and names as the device gives them. */
  attachments?: Pick<Attachment, 'sha256' | 'name'>[];
}

/**
 * The one shape of a post a member has just written: pending, counters at zero, "Just now". The
 * device writes it at once (createPost, and sync when it restores a queued create); the server
 * writes the same when it applies the create.
 */
export function pendingPost(id: number, author: PostAuthor, fields: NewPostFields): Post {
  return {
    id,
    title: fields.title,
    content: fields.content,
    category: fields.category,
    author: author.name,
    authorEmail: author.email,
    authorRole: author.role,
    likes: 0,
    comments: 0,
    views: 0,
    date: 'Just now',
    isTopContributor: false,
    tags: fields.tags ?? [],
    status: 'pending',
  };
}

/** Longest text the forms (and the server) accept. */
export const LIMITS = {
  title: 200,
  content: 20_000,
  name: 100,
  email: 254,
  password: 1_024,
  reply: 10_000,
} as const;

/** What a reply shows: visible to everyone who can see its post, hidden by a moderator, or deleted by its author. */
export const REPLY_STATES = ['visible', 'hidden', 'deleted'] as const;

export type ReplyState = (typeof REPLY_STATES)[number];

/**
 * A reply to an approved post. Its id is the id of the operation that wrote it (a UUID made on the
 * device), so a reply never changes id. `content` is empty once deleted, and for a member (not an
 * admin) while hidden. `createdAt` and `editedAt` are milliseconds since the epoch (the server's
 * clock once the server has it); replies are shown oldest first.
 */
export interface Reply {
  id: string;
  postId: number;
  author: string;
  authorEmail: string;
  authorRole: string;
  content: string;
  /** The reply this one quotes (on the same post), or null. */
  quoteId: string | null;
  createdAt: number;
  editedAt: number | null;
  state: ReplyState;
  /** The files it carries (issue 42); absent for none. A hidden reply's reach admins only, a deleted one's nobody. */
  attachments?: Attachment[];
}

/** The one shape of a reply a member has just written (the device writes it at once; the server the same). */
export function newReply(id: string, postId: number, author: PostAuthor, content: string, quoteId: string | null, now: number): Reply {
  return {
    id,
    postId,
    author: author.name,
    authorEmail: author.email,
    authorRole: author.role,
    content,
    quoteId,
    createdAt: now,
    editedAt: null,
    state: 'visible',
  };
}

/** A tag's key: trimmed and lower-cased (tags compare without case: following, search, trending topics). */
export const tagKey = (tag: string): string => tag.trim().toLowerCase();

/** Tags on a post: how many, and how long each may be. */
export const TAG_LIMITS = { count: 10, length: 40 } as const;

/**
 * The tags a member typed in the composer's Tags field: separated by commas, each trimmed and
 * without a leading "#", empty ones dropped, a repeat (in any case) kept once. Checked by validateTags.
 */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of text.split(',')) {
    const tag = part.trim().replace(/^#+/, '').trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** The admin address when the server's ADMIN_EMAIL is not set, and the local-only build's admin. */
export const DEFAULT_ADMIN_EMAIL = 'admin@insightexchange.app';

/** Emails are compared trimmed and in lower case, everywhere. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A readable name for an email that never signed up with one: "jane.doe@x.com" → "Jane Doe". */
export function nameFromEmail(email: string): string {
  const local = normalizeEmail(email).split('@')[0] ?? '';
  const words = local
    .split(/[._+\-\d]+/u)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return words.length > 0 ? words.join(' ') : 'Member';
}

/** The "N new posts" pill's words. */
export function newPostsLabel(count: number): string {
  return `${count.toLocaleString('en-US')} new post${count === 1 ? '' : 's'}`;
}
