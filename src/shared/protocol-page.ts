// What the first sync's first answers carry (issue 64, item 4): whose session the cookie is
// (GET /api/session) and a page of the forum (GET /api/posts), with the post and reply they are
// made of. Apart from protocol.ts, whose operations' schemas zod builds as the module loads (a long
// task on a slow device): a signed-in page checks and stores the forum's first page with these alone
// (sync/early-page.ts) while the sync's own code still loads. protocol.ts exports them too.

import { z } from 'zod';
import { POST_STATUSES, REPLY_STATES, type Post, type PostEdits, type PostVersion, type Reply } from './post-rules';
import { POLL_LIMITS, type Poll } from './polls';
import { ATTACHMENT_LIMITS, SHA256_PATTERN, type Attachment } from './attachments';
import type { PostReview } from './moderation';

export const userSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'user']),
});
export type User = z.infer<typeof userSchema>;

/** The member a session answer names: the User, and (version 6) their public id (`authorId` of what they write). */
export const sessionUserSchema = userSchema.extend({ id: z.string().optional() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({ user: sessionUserSchema });

export type WirePost = Post &
  Required<PostEdits> &
  Required<PostReview> & { seq: number; authorId: string; poll: Poll | null; attachments: Attachment[] };

/** A file a post carries, as the server read it (issue 42). */
export const wireAttachmentSchema = z.object({
  sha256: z.string().regex(SHA256_PATTERN),
  name: z.string().max(ATTACHMENT_LIMITS.nameChars),
  mime: z.string().max(200),
  size: z.number().int().nonnegative(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
}) satisfies z.ZodType<Attachment>;

/** A poll as the server sends it: the viewer's own ballot only (`ballots` keyed by their email). */
export const wirePollSchema = z.object({
  question: z.string(),
  options: z.array(z.string()).max(POLL_LIMITS.maxOptions),
  multiple: z.boolean(),
  closesAt: z.number().int().nonnegative().nullable(),
  closedAt: z.number().int().nonnegative().nullable(),
  counts: z.array(z.number().int().nonnegative()).max(POLL_LIMITS.maxOptions),
  voters: z.number().int().nonnegative(),
  ballots: z.record(z.string(), z.array(z.number().int().nonnegative()).max(POLL_LIMITS.maxOptions)),
}) satisfies z.ZodType<Poll>;

export const postVersionSchema = z.object({
  title: z.string(),
  content: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  editedAt: z.number().int().nonnegative().nullable(),
}) satisfies z.ZodType<PostVersion>;

export const wirePostSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  content: z.string(),
  category: z.string(),
  author: z.string(),
  authorEmail: z.string(),
  authorRole: z.string(),
  likes: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
  views: z.number().int().nonnegative(),
  date: z.string(),
  isTopContributor: z.boolean(),
  tags: z.array(z.string()),
  status: z.enum(POST_STATUSES),
  // Version 3 (a version-2 server sends none of them).
  editedAt: z.number().int().nonnegative().nullable().default(null),
  resubmitted: z.boolean().default(false),
  previous: postVersionSchema.nullable().default(null),
  // Version 4: the reason of a rejection or hide (to its author and admins; null for everyone else).
  reason: z.string().nullable().default(null),
  // Version 6: the author's public id ('' when the author has no account); `authorEmail` is blank
  // for every viewer but the author and the admins.
  authorId: z.string().default(''),
  // Version 6, from issue 42: the post's poll (null: none; an older server sends none).
  poll: wirePollSchema.nullable().default(null),
  // Version 6, from issue 42: the files the post carries (an older server sends none).
  attachments: z.array(wireAttachmentSchema).max(ATTACHMENT_LIMITS.perPost).default([]),
  seq: z.number().int().nonnegative(),
}) satisfies z.ZodType<WirePost, unknown>;

/** A reply as the server sends it: the Reply of post-rules.ts plus its change number and (version 6) its author's public id. */
export type WireReply = Reply & { seq: number; authorId: string };

export const wireReplySchema = z.object({
  id: z.string(),
  postId: z.number().int().positive(),
  author: z.string(),
  authorEmail: z.string(),
  authorRole: z.string(),
  content: z.string(),
  quoteId: z.string().nullable(),
  createdAt: z.number().int().nonnegative(),
  editedAt: z.number().int().nonnegative().nullable(),
  state: z.enum(REPLY_STATES),
  authorId: z.string().default(''),
  // Version 6, from issue 42: the files it carries (absent: none).
  attachments: z.array(wireAttachmentSchema).max(ATTACHMENT_LIMITS.perPost).optional(),
  seq: z.number().int().nonnegative(),
}) satisfies z.ZodType<WireReply, unknown>;

/** GET /api/posts and GET /api/posts/:id: posts with all their replies, read after the change number `cursor`. */
export const forumPageSchema = z.object({
  posts: z.array(wirePostSchema),
  replies: z.array(wireReplySchema),
  /** The change head read before the rows: every change at or below it is in them. */
  cursor: z.number().int().nonnegative(),
  /** More posts follow: ask again with `before` set to the last post's id. */
  more: z.boolean(),
});
export type ForumPage = z.infer<typeof forumPageSchema>;
