// The wire format of docs/sync-protocol.md as zod schemas: the server checks every request body
// with them and the app builds its requests and reads the answers with the same ones.
import { z } from 'zod';
import { CATEGORIES, LIMITS, POST_STATUSES } from './post-rules';

const trimmed = (max: number) => z.string().trim().min(1).max(max);

export const emailSchema = z.string().trim().toLowerCase().min(3).max(LIMITS.email).pipe(z.email());

export const sessionRequestSchema = z.object({
  mode: z.enum(['signin', 'signup']),
  email: emailSchema,
  password: z.string().min(1).max(LIMITS.password),
  name: trimmed(LIMITS.name).optional(),
});
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

export const userSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'user']),
});
export type User = z.infer<typeof userSchema>;

export const sessionResponseSchema = z.object({ user: userSchema });

/** A post as the server sends it: the Post fields of docs/product.md plus its change number. */
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
  seq: z.number().int().nonnegative(),
});
export type WirePost = z.infer<typeof wirePostSchema>;

/** What a member writes in a new post; everything else is set by the server. */
export const newPostSchema = z.object({
  title: trimmed(LIMITS.title),
  content: trimmed(LIMITS.content),
  category: z.enum(CATEGORIES),
  tags: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
});
export type NewPost = z.infer<typeof newPostSchema>;

const opId = z.uuid();
const postId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const opSchema = z.discriminatedUnion('type', [
  z.object({ id: opId, type: z.literal('create'), post: z.looseObject({}) }),
  z.object({ id: opId, type: z.literal('like'), postId, count: z.number().int().min(1).max(1000).optional() }),
  z.object({ id: opId, type: z.literal('approve'), postId }),
  z.object({ id: opId, type: z.literal('reject'), postId }),
]);
export type Op = z.infer<typeof opSchema>;

export const MAX_OPS_PER_PUSH = 100;
export const pushRequestSchema = z.object({ ops: z.array(opSchema).min(1).max(MAX_OPS_PER_PUSH) });

export const opResultSchema = z.discriminatedUnion('status', [
  z.object({ id: z.string(), status: z.literal('applied'), postId: z.number().optional(), post: wirePostSchema.optional() }),
  z.object({ id: z.string(), status: z.literal('duplicate'), postId: z.number().optional(), post: wirePostSchema.optional() }),
  z.object({ id: z.string(), status: z.literal('refused'), code: z.string(), reason: z.string() }),
]);
export type OpResult = z.infer<typeof opResultSchema>;

export const pushResponseSchema = z.object({ results: z.array(opResultSchema), cursor: z.number().int().nonnegative() });

export const MAX_PULL_LIMIT = 1000;
export const pullResponseSchema = z.object({
  posts: z.array(wirePostSchema),
  cursor: z.number().int().nonnegative(),
  more: z.boolean(),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

export const errorResponseSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const healthResponseSchema = z.object({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']), version: z.string() });
