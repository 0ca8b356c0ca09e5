// The one world every operation's cases start from, and what a case reads back: written once, set up
// by each store's runner (tests/unit/shared/ops on IndexedDB, tests/server/db/ops/op-definitions on PGlite and
// PostgreSQL), so a case means the same thing on the device and on the server.
import type { FlagState } from '../../src/shared/moderation';
import type { OpType } from '../../src/shared/ops/registry';
import type { OpOf } from '../../src/shared/protocol';
import type { PostStatus, ReplyState } from '../../src/shared/post-rules';
import type { Theme } from '../../src/shared/theme';

export const ADMIN = 'admin@insightexchange.app';
export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';
export const CAROL = 'carol@example.com';
/** A member with nothing approved yet: messages are not open to him (issue 61). */
export const DAVE = 'dave@example.com';

export const MEMBERS = [
  { email: ADMIN, name: 'Admin', role: 'admin' as const },
  { email: ALICE, name: 'Alice', role: 'user' as const },
  { email: BOB, name: 'Bob', role: 'user' as const },
  { email: CAROL, name: 'Carol', role: 'user' as const },
  { email: DAVE, name: 'Dave', role: 'user' as const },
];
export type Who = 'admin' | 'alice' | 'bob' | 'dave';
export const EMAIL: Record<Who, string> = { admin: ADMIN, alice: ALICE, bob: BOB, dave: DAVE };
/** Each member's public id (random on a real server): what staff operations name. */
export const MEMBER_ID: Record<string, string> = {
  [ADMIN]: 'a0a0a0a0a0a0a0a0',
  [ALICE]: 'a1a1a1a1a1a1a1a1',
  [BOB]: 'b0b0b0b0b0b0b0b0',
  [CAROL]: 'c0c0c0c0c0c0c0c0',
  [DAVE]: 'd0d0d0d0d0d0d0d0',
};
/** Carol, silenced by an admin for a reason, until one lifts it (she wrote nothing): what an unsilence undoes. */
export const SILENCED = [{ email: CAROL, reason: 'Rude words' }];

/** Bob's approved post (with Alice's and Bob's replies, and a flag of Alice's). */
export const BOBS_POST = 2_000_000_000_001;
/** Alice's pending post. */
export const ALICES_PENDING = 2_000_000_000_002;
/** Alice's rejected post (reason "Off topic"). */
export const ALICES_REJECTED = 2_000_000_000_003;
/** Alice's approved post (which Bob saved). */
export const ALICES_POST = 2_000_000_000_004;
/** Bob's approved post whose poll is closed. */
export const BOBS_OLD_POLL = 2_000_000_000_005;
/** A post no one has. */
export const NO_POST = 2_000_000_000_099;

/** Alice's visible reply to Bob's post. */
export const ALICES_REPLY = '0a000000-0000-4000-8000-000000000001';
/** Bob's visible reply to his own post. */
export const BOBS_REPLY = '0b000000-0000-4000-8000-000000000002';
/** Bob's reply to his post, hidden by a moderator. */
export const HIDDEN_REPLY = '0b000000-0000-4000-8000-000000000003';
/** A reply no one has. */
export const NO_REPLY = '0f000000-0000-4000-8000-000000000009';

/** Alice's open flag of Bob's post. */
export const ALICES_FLAG = '0a000000-0000-4000-8000-0000000000f1';
/** Alice's and Bob's unread notifications. */
export const ALICES_NOTE = '0a000000-0000-4000-8000-0000000000e1';
export const BOBS_NOTE = '0b000000-0000-4000-8000-0000000000e2';

/** The group "Panel vendors" (issue 61), which Alice is in: only the server holds it (a device holds none of its own). */
export const VENDORS = '0d000000-0000-4000-8000-0000000000d1';
export const GROUPS = [{ id: VENDORS, name: 'Panel vendors', description: 'Who runs the panels.', members: [ALICE] }];
/** A group no one has (and the id a case's new group takes). */
export const NEW_GROUP = '0d000000-0000-4000-8000-0000000000d9';

/** A category only Panel vendors see (where they post), and an archived one (issue 61): on the server and on the device. */
export const VENDOR_ROOM = '0e000000-0000-4000-8000-0000000000e1';
export const OLD_ROOM = '0e000000-0000-4000-8000-0000000000e2';
export const WORLD_CATEGORIES = [
  { id: VENDOR_ROOM, name: 'Vendor room', description: '', position: 6, archived: false, see: [VENDORS], post: null },
  { id: OLD_ROOM, name: 'Old room', description: '', position: 7, archived: true, see: null, post: null },
];

/** Fixed ids for what a case makes (a reply's and a flag's id is its op's). */
export const NEW_ID = '0c000000-0000-4000-8000-0000000000c1';

export interface WorldPost {
  id: number;
  author: string;
  status: PostStatus;
  title: string;
  likes: number;
  views: number;
  reason: string | null;
}
export interface WorldReply {
  id: string;
  postId: number;
  author: string;
  state: ReplyState;
  content: string;
}

export const POSTS: WorldPost[] = [
  { id: BOBS_POST, author: BOB, status: 'approved', title: 'Panel speeders', likes: 2, views: 0, reason: null },
  { id: ALICES_PENDING, author: ALICE, status: 'pending', title: 'Waiting', likes: 0, views: 0, reason: null },
  { id: ALICES_REJECTED, author: ALICE, status: 'rejected', title: 'Turned down', likes: 0, views: 0, reason: 'Off topic' },
  { id: ALICES_POST, author: ALICE, status: 'approved', title: 'Weighting', likes: 0, views: 0, reason: null },
  { id: BOBS_OLD_POLL, author: BOB, status: 'approved', title: 'Old poll', likes: 0, views: 0, reason: null },
];

/**
 * The polls (issue 42): Bob's post asks one answer (Alice voted A), Alice's approved post several,
 * her pending post one, Bob's old poll is closed. Options: A, B, C.
 */
export const POLLS: { postId: number; multiple: boolean; closedAt: number | null; ballots: { email: string; choices: number[] }[] }[] = [
  { postId: BOBS_POST, multiple: false, closedAt: null, ballots: [{ email: ALICE, choices: [0] }] },
  { postId: ALICES_POST, multiple: true, closedAt: null, ballots: [] },
  { postId: ALICES_PENDING, multiple: false, closedAt: null, ballots: [] },
  { postId: BOBS_OLD_POLL, multiple: false, closedAt: 1, ballots: [{ email: BOB, choices: [1] }] },
];
export const POLL_QUESTION = 'Which panel?';
export const POLL_OPTIONS = ['A', 'B', 'C'];
export const REPLIES: WorldReply[] = [
  { id: ALICES_REPLY, postId: BOBS_POST, author: ALICE, state: 'visible', content: 'Agreed.' },
  { id: BOBS_REPLY, postId: BOBS_POST, author: BOB, state: 'visible', content: 'Thanks.' },
  { id: HIDDEN_REPLY, postId: BOBS_POST, author: BOB, state: 'hidden', content: 'Rude words.' },
];
/** Bob's open flag of Alice's reply. */
export const BOBS_FLAG = '0b000000-0000-4000-8000-0000000000f2';
export const FLAGS: { id: string; postId: number; replyId: string | null; by: string; state: FlagState }[] = [
  { id: ALICES_FLAG, postId: BOBS_POST, replyId: null, by: ALICE, state: 'open' },
  { id: BOBS_FLAG, postId: BOBS_POST, replyId: ALICES_REPLY, by: BOB, state: 'open' },
];
export const NOTIFICATIONS = [
  { id: ALICES_NOTE, to: ALICE, postId: ALICES_POST },
  { id: BOBS_NOTE, to: BOB, postId: BOBS_POST },
];
export const SAVED = [{ email: BOB, postId: ALICES_POST }];

/**
 * Messages (issue 61): Alice's conversation with Bob (she read it: she wrote its one message; Bob
 * has not). Carol and Dave are not in it, nor the admin. A device holds it only for Alice or Bob.
 */
export const CONVERSATION = '0d000000-0000-4000-8000-0000000000d1';
export const CONVERSATION_SUBJECT = 'Panel quotes';
export const FIRST_MESSAGE = '0d000000-0000-4000-8000-0000000000d2';
export const FIRST_MESSAGE_BODY = 'Hello Bob.';
/** A conversation no one has. */
export const NO_CONVERSATION = '0f000000-0000-4000-8000-0000000000d9';
/** Who takes part in the world's conversation (in its order), and whether each has read it. */
export const CONVERSATION_MEMBERS = [
  { email: ALICE, read: true },
  { email: BOB, read: false },
];

/** What a case reads back, the same on every store. */
export interface Reader {
  /** The post's fields a case looks at (undefined: gone). */
  post(
    id: number,
  ): Promise<
    { status: PostStatus; likes: number; views: number; comments: number; reason: string | null; title: string; author: string } | undefined
  >;
  /** Each post of a member as "<title> <status>", sorted. */
  postsOf(email: string): Promise<string[]>;
  reply(id: string): Promise<{ state: ReplyState; content: string } | undefined>;
  /** The name a reply is shown under (undefined: no such reply). */
  replyAuthor(id: string): Promise<string | undefined>;
  /** Each flag of a post as "<who> <state>" (a reply's: "<who> <state> reply"), sorted. */
  flags(postId: number): Promise<string[]>;
  /** Each notification of a member as "<kind> <read|unread>" (the world's own: "seed …"), sorted. */
  notifications(email: string): Promise<string[]>;
  /** The post title each notification of a member names, sorted. */
  notificationTitles(email: string): Promise<string[]>;
  /** The member's saved state of a post (undefined: never saved). */
  saved(email: string, postId: number): Promise<boolean | undefined>;
  preferences(email: string): Promise<{ theme: Theme; name: string }>;
  /** What the staff decided of the member's writing: silenced, why, until when (ms or null). */
  silence(email: string): Promise<{ silenced: boolean; reason: string | null; until: number | null }>;
  /** The member's suspension: until when (ms) and why (null: not suspended, or a device, which records none). */
  suspension(email: string): Promise<{ until: number; reason: string | null } | null>;
  /**
   * The conversation as `email` holds it (undefined: not theirs, or not here): its subject, its
   * participants' names in order, whether they read it since its last message's arrival, whether they left it.
   */
  conversation(id: string, email: string): Promise<{ subject: string; participants: string[]; read: boolean; left: boolean } | undefined>;
  /** A conversation's messages, oldest first, as "<author>: <body>". */
  messages(conversationId: string): Promise<string[]>;
  /** The flags of a message, as "<who> <reason>" (a device keeps none: its server does). */
  messageFlags(messageId: string): Promise<string[]>;
  /** The post's poll as `email` sees it: votes per option, voters, their ballot, closed or not (null: no poll). */
  poll(postId: number, email: string): Promise<{ counts: number[]; voters: number; mine: number[] | null; closed: boolean } | null>;
  /** Every group as "<name> (<description>): <its members' names, sorted>", sorted (a device holds none). */
  groups(): Promise<string[]>;
  /**
   * A category as "<position> <name> (<description>) see: <Everyone | group names> post: <…>", with
   * " archived" when it is (undefined: none of that id; a device holds none written by an operation).
   */
  category(id: string): Promise<string | undefined>;
  /** Each level of a member as "<kind> <target> <level>" (a post's target by its title), sorted (issue 62). */
  following(email: string): Promise<string[]>;
  /** Each read position of a member as "<post title> post" (the post itself read) or "<post title> reply", sorted. */
  readIn(email: string): Promise<string[]>;
  /** Whether writing makes the member watch what they wrote. */
  autoWatch(email: string): Promise<boolean>;
}

/** The short name of a member's email, as the readers name flaggers. */
export const whoOf = (email: string): string => Object.entries(EMAIL).find(([, address]) => address === email)?.[0] ?? email;

/** How a reader labels a flag and a notification. */
/** How a reader labels a category (its groups by their names, as GROUPS and NEW_GROUP are named). */
export function categoryLabel(category: {
  position: number;
  name: string;
  description: string;
  archived: boolean;
  see: readonly string[] | null;
  post: readonly string[] | null;
}): string {
  const names = (ids: readonly string[] | null) =>
    ids === null ? 'Everyone' : ids.map((id) => GROUPS.find((group) => group.id === id)?.name ?? id).join(', ');
  return `${category.position} ${category.name} (${category.description}) see: ${names(category.see)} post: ${names(category.post)}${category.archived ? ' archived' : ''}`;
}

/** How a reader labels a group. */
export const groupLabel = (name: string, description: string, members: readonly string[]) =>
  `${name} (${description}): ${[...members].sort().join(', ')}`;
export const flagLabel = (email: string, state: string, replyId: string | null) => `${whoOf(email)} ${state}${replyId ? ' reply' : ''}`;
export const notificationLabel = (id: string, kind: string, readAt: unknown) =>
  `${NOTIFICATIONS.some((seeded) => seeded.id === id) ? 'seed' : kind} ${readAt === null || readAt === undefined ? 'unread' : 'read'}`;

/** One case of one operation: who sends what, and what follows (a refusal's code, or what the rows say after). */
export interface OpCase<T extends OpType = OpType> {
  name: string;
  who: Who;
  type: T;
  payload: Omit<OpOf<T>, 'id' | 'type'>;
  /**
   * A refusal only the server can make (it alone knows every member, and who has something
   * approved): the device, which cannot know, applies it and leaves it to its server.
   */
  deviceApplies?: boolean;
  /** The op's id, when a case names what it makes (a reply's, a flag's). */
  id?: string;
  /**
   * A refusal's code (the device's and the server's: one code per meaning), or what `look` reads
   * after; `onDevice`: what a device reads instead, where the effect is the server's alone.
   */
  expect: string | { look: (read: Reader) => Promise<unknown>; is: unknown; onDevice?: unknown };
}

/** Declares the cases of one operation (typed by its payload). */
export function casesOf<T extends OpType>(type: T, cases: Omit<OpCase<T>, 'type'>[]): OpCase<T>[] {
  return cases.map((one) => ({ ...one, type }));
}

/**
 * The tables a store keeps that an operation may change, as the cases see them: each runner reads
 * them all before and after a case, and every table that changed must have been read by the case's
 * `look` (a device and a server that differ in a table no case reads would pass unnoticed).
 */
export type Table =
  | 'posts'
  | 'polls'
  | 'replies'
  | 'flags'
  | 'notifications'
  | 'saved'
  | 'members'
  | 'groups'
  | 'categories'
  | 'messages'
  | 'follows'
  | 'reads';

/** The tables each of the reader's questions reads. */
export const READS: Record<keyof Reader, readonly Table[]> = {
  // A post's poll leaves with it.
  post: ['posts', 'polls'],
  postsOf: ['posts', 'polls'],
  poll: ['polls'],
  reply: ['replies'],
  replyAuthor: ['replies'],
  flags: ['flags'],
  notifications: ['notifications'],
  notificationTitles: ['notifications'],
  saved: ['saved'],
  preferences: ['members'],
  silence: ['members'],
  suspension: ['members'],
  groups: ['groups'],
  category: ['categories'],
  conversation: ['messages'],
  messages: ['messages'],
  messageFlags: ['messages'],
  following: ['follows'],
  readIn: ['reads'],
  autoWatch: ['members'],
};

/** How a reader labels a level: a post's target by its title (`titleOf`). */
export const followLabel = (kind: string, target: string, level: string, titleOf: (id: number) => string | undefined) =>
  `${kind} ${(kind === 'post' ? titleOf(Number(target)) : undefined) ?? target} ${level}`;
/** How a reader labels a read position. */
export const readLabel = (title: string | undefined, readTo: number) => `${title ?? '?'} ${readTo === 0 ? 'post' : 'reply'}`;

/** `reader`, recording the tables a case reads through it. */
export function watched(reader: Reader): { reader: Reader; read: Set<Table> } {
  const read = new Set<Table>();
  const wrapped = Object.fromEntries(
    (Object.keys(READS) as (keyof Reader)[]).map((name) => [
      name,
      (...args: never[]) => {
        for (const table of READS[name]) read.add(table);
        return (reader[name] as (...given: never[]) => unknown)(...args);
      },
    ]),
  ) as unknown as Reader;
  return { reader: wrapped, read };
}

/** The tables whose contents differ between two readings (each: the table's rows, in a stable order). */
export function changedTables(before: Record<Table, unknown>, after: Record<Table, unknown>): Table[] {
  return (Object.keys(before) as Table[]).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table])).sort();
}
