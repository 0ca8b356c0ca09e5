// What an operation is: one definition, run by the device against IndexedDB (local-only mode, and
// the optimistic write before a push), by the server against PostgreSQL, and by the device again to
// replay what the server has not confirmed yet (db/ops/replay.ts). Each definition says what goes on
// the wire, how its payload is checked, who may send it, and its rule and effect over one small store
// (store.ts). Nothing here imports zod: protocol.ts hands it in to build the wire schemas, so the
// device's write path stays free of it.
import type { z } from 'zod';
import type { WireErrorCode } from '../errors';
import type { Actor } from '../post-rules';
import type { Problem } from '../validation';
import type { OpStore } from './store';

/**
 * The zod constructors a definition's wire fields may use. protocol.ts hands in just these: the
 * whole `z` handed around would keep all of zod (its locales too) in the bundle.
 */
export type Zod = Pick<typeof z, 'array' | 'boolean' | 'enum' | 'looseObject' | 'number' | 'unknown'>;

/** The wire fields every definition builds on (protocol.ts makes them). */
export interface WireFields {
  /** A post's id: a positive safe integer. */
  postId: z.ZodNumber;
  /** A reply's id (a UUID: the id of the op that wrote it). */
  replyId: z.ZodUUID;
  /** Any other UUID (a notification's). */
  uuid: z.ZodUUID;
  /** A member's public id (16 hexadecimal digits). */
  memberId: z.ZodString;
}

/** The envelope of one operation: its id and type, then its own fields. */
export type Envelope<T extends string, S extends z.ZodRawShape> = z.infer<z.ZodObject<S>> & { id: string; type: T };

/** Refuses an operation: the vocabulary's code, with a more precise sentence (and title) where a rule gives one. */
export class OpRefusal extends Error {
  override readonly name = 'OpRefusal';
  constructor(
    readonly code: WireErrorCode,
    readonly reason?: string,
    readonly title?: string,
  ) {
    super(reason ?? code);
  }
}

/** Refuses with `code` (the vocabulary's sentence). */
export function refuse(code: WireErrorCode): never {
  throw new OpRefusal(code);
}

/** Refuses input that breaks a rule of validation.ts, with the rule's own title and sentence. */
export function refuseInput(problem: Problem): never {
  throw new OpRefusal('invalid', problem.message, problem.title);
}

/** Refuses when `problem` is a broken rule; otherwise nothing. */
export function check(problem: Problem | null): void {
  if (problem) refuseInput(problem);
}

/** What an operation's run is told besides its arguments. */
export interface OpContext {
  /** The operation's id (a reply's and a flag's id is the id of the op that made it). */
  readonly id: string;
  /** When it happens (ms since the epoch): the server's clock, or the device's when it made it. */
  readonly now: number;
  /**
   * Names what the op is about: its post (a create: the new one) and reply. The device files the
   * queued op under them; the server answers a retry with them as they are now.
   */
  about(postId: number, replyId?: string | null): void;
}

/**
 * The limits (server/lib/limits.ts, where each is set and explained) an operation may take: one of
 * each per operation sent by a member (admins are exempt), or its `cost`.
 */
export type OpLimit =
  | 'posts_per_day'
  | 'seconds_between_posts'
  | 'replies_per_day'
  | 'seconds_between_replies'
  | 'likes_per_day'
  | 'flags_per_day'
  | 'votes_per_day'
  | 'edits_per_day'
  | 'renames_per_day'
  | 'messages_per_day';

/** What the staff log (server/db/staff/staff-log.ts) keeps of an action besides its reason: its decision. */
export interface StaffDetail {
  /** A suspension's or silence's end (ms; null: lifted, or none). */
  until?: number | null;
  /** A silence (true) or its lifting (false). */
  silenced?: boolean;
  /** A category archived (true) or brought back (false). */
  archived?: boolean;
}

/** A staff action: when an admin's operation goes in the staff log, and how /admin/log words it. */
export interface StaffAction {
  /** Always (`always`), or only when it reaches what someone else wrote (`othersWriting`: an admin's deletion). */
  readonly when: 'always' | 'othersWriting';
  /** Its words after the actor's name ("approved", "hid a reply on"), by what it decided. */
  verb(detail: StaffDetail): string;
}

/** A code an older device does not know: before protocol `before`, `code` is answered `as`. */
export interface LegacyCode {
  readonly code: WireErrorCode;
  readonly before: number;
  readonly as: WireErrorCode;
}

/** What a definition says of itself besides its type, its protocol version and who may send it. */
export interface OpBody<T extends string, S extends z.ZodRawShape, A> {
  /** Its fields on the wire besides `id` and `type` (protocol.ts builds the envelope's schema). */
  wire(z: Zod, fields: WireFields): S;
  /**
   * Checks and normalizes what the envelope let through (texts by the rules of validation.ts, so a
   * bad text is one refusal with the rule's sentence); throws OpRefusal. What it returns has the
   * envelope's own fields (trimmed texts; an absent optional field undefined): the device queues it
   * as it ran it.
   */
  parse(op: Envelope<T, S>): A;
  /** The rule over the actor and the rows it reads, then its effect; throws OpRefusal, which undoes it all. */
  run(store: OpStore, actor: Actor, args: A, context: OpContext): Promise<void>;
  /** Sent to the server even when it changed nothing on the device (the server may hold what the device does not). */
  readonly sendUnchanged?: boolean;
  /**
   * The row it makes, which a refusal takes away again on the device (its key: the new post's id, or
   * the op's id; a conversation: its `conversationId`, with its messages).
   */
  readonly creates?: 'post' | 'reply' | 'flag' | 'conversation' | 'message';
  /**
   * What it takes off the device, which its Undo (or a refusal) puts back: a post (the deletion stays
   * about the server's post of that id, and hides it while outstanding) or a reply.
   */
  readonly removes?: 'post' | 'reply';
  /**
   * The device's rows it changes besides its post and reply, which show the server's word again
   * with what is outstanding on top once it settles (db/sync/rebase.ts): the member's notifications
   * (its `ids`), their saved row of its post, their preferences (theme, name, auto-watch), their
   * level on a post, category or tag (follows), their read position in a post (reads).
   */
  readonly touches?: 'notifications' | 'saved' | 'preferences' | 'follows' | 'reads';
  /** What the member wrote in it, which a refusal gives back to them as a draft on the device (a message: with the refusal's sentence). */
  readonly keeps?: 'post' | 'reply' | 'edit' | 'message' | 'name';
  /**
   * The files it names (their SHA-256), read from it as it travels (a queued operation, unchecked):
   * the device's push uploads them before it (sync/uploads.ts), a refused post's draft gets them back.
   */
  files?(op: Envelope<T, S>): readonly string[];
  /**
   * A member's operation a silenced member may still send: reading (view), their own keeping (save,
   * setTheme, readNotifications) and removing what they wrote. Every other one of a member is refused
   * `silenced` by the one rule of silence before it runs (rules.ts, runOp).
   */
  readonly whileSilenced?: boolean;
  /** The limits a member's operation takes (none: only the push's own). */
  readonly limits?: readonly OpLimit[];
  /** How many of each limit it takes (default 1; a like: its count). */
  cost?(args: A): number;
  /** Applied by the server's group commit (a like: server/db/ops/like-batch.ts) rather than a transaction of its own. */
  readonly batched?: boolean;
  /** A staff action (the staff log's entry and words); none: never one. */
  readonly staff?: StaffAction;
  /** Refusal codes older devices know under another name (server/db/ops/answers.ts, legacyCode). */
  readonly legacyCodes?: readonly LegacyCode[];
}

export interface OpDefinition<T extends string = string, S extends z.ZodRawShape = z.ZodRawShape, A = unknown> extends OpBody<T, S, A> {
  readonly type: T;
  /** The protocol version that introduced it (docs/sync-protocol.md). */
  readonly since: number;
  /** Who may send it at all: any signed-in member, or admins only (`admins_only`). */
  readonly who: 'member' | 'admin';
}

/**
 * Declares one operation: its type, the protocol version that brought it, who may send it (any
 * member, or admins only), and its body (its types are inferred from the wire fields).
 */
export function defineOp<T extends string, S extends z.ZodRawShape, A>(
  type: T,
  since: number,
  who: 'member' | 'admin',
  body: OpBody<T, S, A>,
): OpDefinition<T, S, A> {
  return { ...body, type, since, who };
}

/** The payload of an operation about one post, as it travels and as it is read. */
export const ABOUT_POST = {
  wire: (_z: Zod, fields: WireFields) => ({ postId: fields.postId }),
  parse: (op: { postId: number }) => ({ postId: op.postId }),
};

/** The payload of an operation about one reply. */
export const ABOUT_REPLY = {
  wire: (_z: Zod, fields: WireFields) => ({ replyId: fields.replyId }),
  parse: (op: { replyId: string }) => ({ replyId: op.replyId }),
};
