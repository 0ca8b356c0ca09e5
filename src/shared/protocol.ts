// The wire format of docs/sync-protocol.md as zod schemas: the server's routes validate requests
// with them (server/plugins/zod-validation.ts), and the app builds its requests and reads the
// answers with the same ones. The rules inside them are those of ./validation.ts, so the server
// refuses bad input with the very sentence the device would show. The operations' schemas come
// from their definitions (./ops/registry.ts).
import { z } from 'zod';
import type { OpDefinition, WireFields, Zod } from './ops/define';
import { OPERATIONS, type AnyDefinition, type OpType } from './ops/registry';
import { ERRORS, WIRE_ERROR_CODES } from './errors';
import { problem } from './text-checks';
import { LIMITS, POST_STATUSES, REPLY_STATES } from './post-rules';
import { THEMES } from './theme';
import { ATTACHMENT_LIMITS } from './attachments';
import { MEMBER_ID_PATTERN } from './members';
import { FLAG_REASONS, FLAG_STATES, NOTIFICATION_KINDS, type Flag, type Notification } from './moderation';
import { EMAIL_FORMAT_MESSAGE, hasUnstorableText, unstorableText, validateEmailAddress, validateName, type Problem } from './validation';
import { FOLLOW_KINDS, FOLLOW_LEVELS } from './follows';
import { forumPageSchema, sessionUserSchema, wireAttachmentSchema, wirePostSchema, wireReplySchema } from './protocol-page';

// The version and its header live apart (./protocol-version.ts), so that code which only sends
// requests early (src/sync/early.ts) does not bring these schemas and zod with it.
export { PROTOCOL_HEADER, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol-version';
// The session's answer and the forum's pages live apart too (./protocol-page.ts): a signed-in page
// reads its first page with them before these schemas are built (src/sync/early-page.ts).
export * from './protocol-page';

/** A refinement that adds `problem` (a rule of ./validation.ts) as the issue's message. */
function rule<T>(check: (value: T) => Problem | null) {
  return (value: T, context: z.RefinementCtx) => {
    const problem = check(value);
    if (problem) context.addIssue({ code: 'custom', message: problem.message });
  };
}

const storable = (field: string) => rule((value: string) => unstorableText(field, value));

/** zod's strict check of an address, after the shared rule's looser one. */
const strictEmail = z.email();

// The shared rule, then zod's stricter check, both in the same words ("Invalid email: Invalid email
// address" was read).
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine(
    rule(
      (value: string) =>
        validateEmailAddress(value) ?? (strictEmail.safeParse(value).success ? null : problem(ERRORS.invalid.title, EMAIL_FORMAT_MESSAGE)),
    ),
  );

export const sessionRequestSchema = z.object({
  mode: z.enum(['signin', 'signup']),
  email: emailSchema,
  password: z.string().min(1).max(LIMITS.password).superRefine(storable('Password')),
  name: z.string().trim().superRefine(rule(validateName)).optional(),
  /**
   * Issue 64 (item 5): a device that has never pulled asks Sign In's answer to carry the window's
   * first page, this many posts (what GET /api/posts?limit= would answer), so that it paints the
   * forum without a second round trip. A server that does not know it leaves it out.
   */
  firstPage: z.number().int().min(1).max(100).optional(),
});
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

/** The password fields of the account routes (the policy itself is the server's: lib/password-policy.ts). */
export const passwordSchema = z.string().min(1).max(LIMITS.password).superRefine(storable('Password'));

/**
 * A post as the server sends it: the Post of post-rules.ts, its edits (version 3; `previous` only
 * to admins, else null) and its change number.
 */

/**
 * A notification as the server sends it to its recipient: the Notification of moderation.ts plus its
 * change number, and (version 6) its actor's public id and role (the Admin badge), null without one.
 */
export type WireNotification = Notification & { seq: number; actorId: string | null; actorRole: string | null };

export const wireNotificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  postId: z.number().int().positive(),
  replyId: z.string().nullable(),
  actor: z.string().nullable(),
  postTitle: z.string(),
  reason: z.string().nullable(),
  createdAt: z.number().int().nonnegative(),
  readAt: z.number().int().nonnegative().nullable(),
  count: z.number().int().positive().optional(),
  actorId: z.string().nullable().default(null),
  actorRole: z.string().nullable().default(null),
  seq: z.number().int().nonnegative(),
}) satisfies z.ZodType<WireNotification, unknown>;

/** A flag as the server sends it: to admins every flag, to a member their own. */
export type WireFlag = Flag & { seq: number };

export const wireFlagSchema = z.object({
  id: z.string(),
  postId: z.number().int().positive(),
  replyId: z.string().nullable(),
  reason: z.enum(FLAG_REASONS),
  text: z.string(),
  flagger: z.string(),
  flaggerEmail: z.string(),
  createdAt: z.number().int().nonnegative(),
  state: z.enum(FLAG_STATES),
  seq: z.number().int().nonnegative(),
}) satisfies z.ZodType<WireFlag>;

/**
 * A member as a pull names them (version 6), when their name or role changed in the pull's range: the
 * device gives what they wrote that name (a rename is this one row, not one per post). `email`
 * reaches admins only (their devices name flaggers by it).
 */
export const wireMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'user']),
  email: z.string().optional(),
  seq: z.number().int().nonnegative(),
});
export type WireMember = z.infer<typeof wireMemberSchema>;

/** A saved post as the server sends it to its member. */
export const wireSavedSchema = z.object({
  postId: z.number().int().positive(),
  saved: z.boolean(),
  at: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type WireSaved = z.infer<typeof wireSavedSchema>;

/** A member's preferences as the server sends them (Preferences of members.ts plus the change number). */
export const wirePreferencesSchema = z.object({
  theme: z.enum(THEMES),
  name: z.string(),
  /** Version 6: the staff silenced the member (they read, but write nothing). */
  silenced: z.boolean().default(false),
  /** Issue 59: why, and until when (ms; null: no end date): the member's banner says both. */
  silenceReason: z.string().nullable().default(null),
  silencedUntil: z.number().nullable().default(null),
  /** Version 8: writing a post or replying makes the member watch it (Profile's "Watch what I write"). */
  autoWatch: z.boolean().default(true),
  seq: z.number().int().nonnegative(),
});
export type WirePreferences = z.infer<typeof wirePreferencesSchema>;

/** Version 8: one of the member's levels (follows.ts) as a pull sends it to them. */
export const wireFollowSchema = z.object({
  kind: z.enum(FOLLOW_KINDS),
  target: z.string(),
  level: z.enum(FOLLOW_LEVELS),
  at: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type WireFollow = z.infer<typeof wireFollowSchema>;

/** Version 8: the member's read position in one post (follows.ts) as a pull sends it to them. */
export const wireReadSchema = z.object({
  postId: z.number().int().positive(),
  readTo: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type WireRead = z.infer<typeof wireReadSchema>;

/**
 * A group as a pull sends it (version 7): to admins every group, to a member the groups they are in.
 * `member`: the viewer is in it; `gone`: the viewer is no longer in it (a member's device drops it;
 * its name and description are then blank).
 */
export const wireGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  member: z.boolean(),
  gone: z.boolean().default(false),
  seq: z.number().int().nonnegative(),
});
export type WireGroup = z.infer<typeof wireGroupSchema>;

/** One member's place in a group as a pull sends it (version 7): to admins only. `member` false: taken out. */
export const wireGroupMemberSchema = z.object({
  groupId: z.string(),
  memberId: z.string(),
  name: z.string(),
  member: z.boolean(),
  seq: z.number().int().nonnegative(),
});
export type WireGroupMember = z.infer<typeof wireGroupMemberSchema>;

/**
 * A category as a pull sends it (version 7), when it changed (or the viewer's groups did) in the
 * pull's range: in full to whoever may see it; to anyone else only its id, `gone` (the device drops
 * it; nothing else of it: the rest is blank).
 */
export const wireCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  position: z.number().int(),
  archived: z.boolean(),
  see: z.array(z.string()).nullable(),
  post: z.array(z.string()).nullable(),
  gone: z.boolean().default(false),
  seq: z.number().int().nonnegative(),
});
export type WireCategory = z.infer<typeof wireCategorySchema>;

/**
 * A conversation as a pull sends it to one of its participants (version 7): its subject and
 * participants, the viewer's own lastReadAt, and `left` once the viewer left it (the device then
 * drops it and its messages; nothing of it reaches them any more: that row's participants are
 * empty, and its updatedAt is at most when they left).
 */
export const wireConversationSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  authorId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  participants: z.array(z.object({ id: z.string(), name: z.string(), left: z.boolean() })),
  lastReadAt: z.number().nullable(),
  left: z.boolean(),
  seq: z.number().int().nonnegative(),
});
export type WireConversation = z.infer<typeof wireConversationSchema>;

/** A message as a pull sends it to the participants of its conversation (version 7). */
export const wireMessageSchema = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  authorId: z.string(),
  author: z.string(),
  body: z.string(),
  createdAt: z.number(),
  /** The files it carries (absent: none), as a reply's. */
  attachments: z.array(wireAttachmentSchema).max(ATTACHMENT_LIMITS.perPost).optional(),
  seq: z.number().int().nonnegative(),
});
export type WireMessage = z.infer<typeof wireMessageSchema>;

/** The zod constructors the operations' wire schemas are built with (define.ts, Zod): only these, so the bundle keeps only these. */
const WIRE_ZOD: Zod = {
  array: z.array,
  boolean: z.boolean,
  enum: z.enum,
  looseObject: z.looseObject,
  number: z.number,
  unknown: z.unknown,
};

/** The fields the operations' wire schemas build on (src/shared/ops/define.ts, WireFields). */
const WIRE_FIELDS: WireFields = {
  postId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  replyId: z.uuid().lowercase(),
  // Ids are compared as written (an index, a join): the devices make them in lower case, and one in
  // upper case would be another row for the same UUID.
  uuid: z.uuid().lowercase(),
  memberId: z.string().regex(MEMBER_ID_PATTERN),
};

/** The wire schema of one definition: its id (a UUID made on the device), its type, its own fields. */
type WireSchemaOf<D> =
  D extends OpDefinition<infer T, infer S, infer _A> ? z.ZodObject<{ id: z.ZodUUID; type: z.ZodLiteral<T> } & S> : never;

/** One operation as it travels (every definition of src/shared/ops/registry.ts; their texts are checked after the envelope by `parse`). */
export type Op = z.infer<WireSchemaOf<AnyDefinition>>;
/** One operation of `type`. */
export type OpOf<T extends OpType> = Extract<Op, { type: T }>;

export const opSchema = z.discriminatedUnion(
  'type',
  OPERATIONS.map((definition) =>
    z.object({ id: z.uuid(), type: z.literal(definition.type), ...definition.wire(WIRE_ZOD, WIRE_FIELDS) }),
  ) as unknown as [z.ZodObject<{ type: z.ZodLiteral<OpType> }>],
) as unknown as z.ZodType<Op>;

export const MAX_OPS_PER_PUSH = 100;
export const pushRequestSchema = z.object({ ops: z.array(opSchema).min(1).max(MAX_OPS_PER_PUSH) });
export type PushRequest = z.infer<typeof pushRequestSchema>;

/**
 * A code on the wire. The server only ever sends one of WIRE_ERROR_CODES; a device reads any
 * string, so that a newer server's code is shown with the server's sentence instead of failing.
 */
export const wireErrorCodeSchema = z.enum(WIRE_ERROR_CODES);
const readCode = z.string();

/**
 * One answer per operation: `applied` or `duplicate` (settled: it leaves the outbox), `refused`
 * (never will be: the device undoes it and says why), `failed` (the server could not apply it
 * this time: it stays queued and is sent again; the device sets it aside if it keeps failing).
 */
/** What an applied operation's answer carries (its retry's too). */
const settledFields = {
  /** The change number it took (absent: it changed nothing); every row it wrote carries it. */
  seq: z.number().int().nonnegative().optional(),
  postId: z.number().optional(),
  post: wirePostSchema.optional(),
  reply: wireReplySchema.optional(),
  flag: wireFlagSchema.optional(),
};

export const opResultSchema = z.discriminatedUnion('status', [
  z.object({ id: z.string(), status: z.literal('applied'), ...settledFields }),
  z.object({ id: z.string(), status: z.literal('duplicate'), ...settledFields }),
  z.object({ id: z.string(), status: z.literal('refused'), code: readCode, reason: z.string() }),
  // Version 6: `retryAfter` (seconds) when the op was over a limit (`slow_down`): the device keeps it and sends it then.
  z.object({ id: z.string(), status: z.literal('failed'), code: readCode, reason: z.string(), retryAfter: z.number().optional() }),
]);
export type OpResult = z.infer<typeof opResultSchema>;
/** A result as the server writes it: its codes are the vocabulary's wire codes. */
export type ServerOpResult =
  | Extract<OpResult, { status: 'applied' | 'duplicate' }>
  | (Extract<OpResult, { status: 'refused' | 'failed' }> & { code: z.infer<typeof wireErrorCodeSchema> });

export const pushResponseSchema = z.object({ results: z.array(opResultSchema), cursor: z.number().int().nonnegative() });
export type PushResponse = z.infer<typeof pushResponseSchema>;

export const MAX_PULL_LIMIT = 1000;
/** GET /api/changes?after=&limit= (query strings are text: numbers are coerced). */
export const pullQuerySchema = z.object({
  after: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PULL_LIMIT).default(500),
  /**
   * A device's first sync of a window (issue 44): posts, replies and removed posts only above this
   * change number (the window's pages, GET /api/posts, hold what it needs below); everything else from `after`.
   */
  postsAfter: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const pullResponseSchema = z.object({
  posts: z.array(wirePostSchema),
  /** Version 2: the replies changed in the same range (to approved posts this member can see). */
  replies: z.array(wireReplySchema).default([]),
  /** Version 3: the posts deleted in the same range (ids only): the device drops them and their replies. */
  removed: z.array(z.object({ id: z.number().int().positive(), seq: z.number().int().nonnegative() })).default([]),
  /** Version 4: this member's notifications changed in the same range (new, or read). */
  notifications: z.array(wireNotificationSchema).default([]),
  /** Version 4: the flags changed in the same range that this member may see (admins: all; members: their own). */
  flags: z.array(wireFlagSchema).default([]),
  /** Version 5: this member's saved posts changed in the same range (a save or an unsave). */
  saved: z.array(wireSavedSchema).default([]),
  /** Version 5: this member's preferences, when they changed in the same range (else null). */
  preferences: wirePreferencesSchema.nullable().default(null),
  /** Version 6: the members renamed (or whose role changed) in the same range. */
  members: z.array(wireMemberSchema).default([]),
  /** Version 7: the groups changed in the same range that this member may see (admins: all; members: their own). */
  groups: z.array(wireGroupSchema).default([]),
  /** Version 7: the groups' members changed in the same range (admins only). */
  groupMembers: z.array(wireGroupMemberSchema).default([]),
  /** Version 7: the categories changed in the same range (those this member may not see: their id, `gone`). */
  categories: z.array(wireCategorySchema).default([]),
  /** Version 7: this member's conversations changed in the same range (a new message, a read, a leave). */
  conversations: z.array(wireConversationSchema).default([]),
  /** Version 7: the messages written in the same range in the conversations this member reads. */
  messages: z.array(wireMessageSchema).default([]),
  /** Version 8: this member's levels changed in the same range (Normal too: it replaces another level). */
  follows: z.array(wireFollowSchema).default([]),
  /** Version 8: this member's read positions that moved in the same range. */
  reads: z.array(wireReadSchema).default([]),
  /**
   * Issue 63: present (true) while this member's account has two-step verification on, whatever the
   * range: a device forgets its offline password verifier (turned on from another device).
   */
  twoStep: z.literal(true).optional(),
  cursor: z.number().int().nonnegative(),
  more: z.boolean(),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

/** A suspension's end (ms) and reason ride with `suspended`: a device words them in its reader's time zone. */
const suspensionDetails = { until: z.number().optional(), reason: z.string().nullable().optional() };
export const errorResponseSchema = z.object({ error: z.object({ code: readCode, message: z.string(), ...suspensionDetails }) });
/** What the server sends on any error: `code` is one of the vocabulary's wire codes. */
export type ErrorResponse = {
  error: { code: z.infer<typeof wireErrorCodeSchema>; message: string; until?: number; reason?: string | null };
};

export const healthResponseSchema = z.object({
  ok: z.literal(true),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
  protocol: z.number().int().positive(),
});

/**
 * GET /api/search?q=&category=&limit=: PostgreSQL full-text search of the approved posts (the
 * forum's: is:mine keeps the member's own), ranked; `q` is the search language of search-language.ts (parseQuery), its
 * free text and phrases searched as words, its filters applied exactly as on the device.
 */
/** The most posts one page of GET /api/posts carries. */
export const MAX_POSTS_PAGE = 500;
/**
 * GET /api/posts (issue 44): a page of the forum from the server, newest first. `part` newest: the
 * approved posts (of `category`) older than `before`; kept: what a window always holds (the
 * member's own posts, saved posts, and to admins every post not approved).
 */
export const postsQuerySchema = z.object({
  part: z.enum(['newest', 'kept']).default('newest'),
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_POSTS_PAGE).default(100),
  category: z.string().max(100).optional(),
});

/**
 * POST /api/session's answer: the member signed in, or (Create Account with an address that has an
 * account) `checkEmail`, the same "check your email" a new account's answer carries, without a session,
 * or `twoStep` (no session yet: a code is asked for).
 */
export const signInResponseSchema = z.object({
  user: sessionUserSchema.optional(),
  checkEmail: z.boolean().optional(),
  /** Issue 63: the password was right and two-step verification is on: POST /api/session/two-step with a code next. */
  twoStep: z.literal(true).optional(),
  /** Issue 63: the password linked the organisation's account this browser came back with (/login?sso=link). */
  ssoLinked: z.literal(true).optional(),
  /** Issue 64: the window's first page the request asked for (`firstPage`), as GET /api/posts answers it. */
  firstPage: forumPageSchema.optional(),
});
export const postParamsSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const MAX_SEARCH_LIMIT = 100;
export const searchQuerySchema = z.object({
  q: z.string().max(400).default(''),
  category: z.string().max(100).default('All'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(50),
  /** The device's pull cursor: a replica that has replayed that far may answer (REPLICA_URL). */
  after: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const searchResponseSchema = z.object({
  /** Best first: the device stores them like pulled posts and shows them in this order. */
  posts: z.array(wirePostSchema),
  /** How many posts match, counted up to 100 (the answer holds at most `limit`). */
  total: z.number().int().nonnegative(),
  /** Version 6: more than `total` match ("100+ results"). */
  more: z.boolean().default(false),
  /** Version 6: the posts found through a reply, and that reply (its link leads to it). */
  matches: z
    .array(z.object({ postId: z.number().int().positive(), replyId: z.string() }))
    .max(100)
    .default([]),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** GET /api/members/:id: a MemberProfile (members.ts), to any signed-in member. */
export const memberParamsSchema = z.object({ id: z.string().regex(MEMBER_ID_PATTERN) });
/** GET /api/admin/message-flags/:id (issue 61): a flag of a message, by its id. */
export const messageFlagParamsSchema = z.object({ id: z.uuid() });
export const memberProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'user']).default('user'),
  joinedAt: z.number().int().nonnegative().nullable(),
  approvedPosts: z.number().int().nonnegative(),
  replyCount: z.number().int().nonnegative(),
  likesReceived: z.number().int().nonnegative(),
});

/** A member as the admin's Members tab lists them (GET /api/admin/members; protocol 6): their email too. */
export const adminMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'user']),
  /** When they joined (ms), or null for an author nobody signs in as (a sample post's). */
  joinedAt: z.number().nullable(),
  suspendedUntil: z.number().nullable(),
  /** True while the suspension lasts (the server's clock). */
  suspended: z.boolean(),
  suspendReason: z.string().nullable(),
  /** True while the silence lasts (isSilencedAt, the server's clock); why, and until when (null: no end date). */
  silenced: z.boolean(),
  silenceReason: z.string().nullable().default(null),
  silencedUntil: z.number().nullable().default(null),
  closed: z.boolean(),
  posts: z.number().int().nonnegative(),
  replies: z.number().int().nonnegative(),
  flagsRaised: z.number().int().nonnegative(),
});
export type AdminMember = z.infer<typeof adminMemberSchema>;
export const adminMembersResponseSchema = z.object({ members: z.array(adminMemberSchema) });
export const adminMembersQuerySchema = z.object({
  q: z
    .string()
    .max(200)
    .default('')
    .refine((q) => !hasUnstorableText(q), 'A search for a member cannot hold control characters.'),
});

/** One member in the Members tab, with their recent posts (every status), replies and the flags they raised. */
export const adminMemberDetailSchema = z.object({
  member: adminMemberSchema,
  posts: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      status: z.enum(POST_STATUSES),
      likes: z.number(),
      comments: z.number(),
    }),
  ),
  replies: z.array(
    z.object({
      id: z.string(),
      postId: z.number(),
      postTitle: z.string(),
      excerpt: z.string(),
      state: z.enum(REPLY_STATES),
      createdAt: z.number(),
    }),
  ),
  flags: z.array(
    z.object({
      id: z.string(),
      postId: z.number(),
      replyId: z.string().nullable(),
      reason: z.string(),
      text: z.string(),
      state: z.string(),
      createdAt: z.number(),
    }),
  ),
});
export type AdminMemberDetail = z.infer<typeof adminMemberDetailSchema>;

/** One staff action (GET /api/admin/log; protocol 6). */
export const staffLogEntrySchema = z.object({
  id: z.number(),
  at: z.number(),
  /** The operation's type (approve, hidePost, suspendMember…) or setLimit. */
  action: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }),
  member: z.object({ id: z.string(), name: z.string() }).nullable(),
  postId: z.number().nullable(),
  replyId: z.string().nullable(),
  title: z.string().nullable(),
  reason: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type StaffLogEntry = z.infer<typeof staffLogEntrySchema>;
export const staffLogPageSchema = z.object({ entries: z.array(staffLogEntrySchema), more: z.boolean() });
export type StaffLogPage = z.infer<typeof staffLogPageSchema>;
export const staffLogQuerySchema = z.object({ before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() });

/** A member's limit as the admin sets it (PUT /api/admin/limits; protocol 6): `count` per `seconds`, and in a member's first day. */
const limitCount = z.number().int().min(0).max(1_000_000);
/** A limit's window: a second to thirty days. */
const limitSeconds = z
  .number()
  .int()
  .min(1)
  .max(30 * 24 * 60 * 60);
export const limitRuleSchema = z.object({
  count: limitCount,
  seconds: limitSeconds,
  firstDayCount: limitCount,
  firstDaySeconds: limitSeconds,
});
export const limitsResponseSchema = z.object({
  limits: z.record(z.string(), limitRuleSchema),
  defaults: z.record(z.string(), limitRuleSchema),
});
/**
 * Every changed limit at once, saved together or not at all (the admin's one Save); the older shape
 * of one limit, `{name, rule}`, is read as a list of one (so a refusal names the same fields).
 */
export const setLimitRequestSchema = z.preprocess(
  (body) =>
    typeof body === 'object' && body !== null && 'name' in body && !('limits' in body)
      ? { limits: { [String((body as { name: unknown }).name).slice(0, 100)]: (body as { rule?: unknown }).rule } }
      : body,
  z.object({ limits: z.record(z.string().max(100), limitRuleSchema) }),
);
