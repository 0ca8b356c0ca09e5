// The Dexie database `insight-exchange`: every table, index and version lives in this file.
// A shipped version(n) is never edited; a change is version(n + 1) with its upgrade().
// It also owns the connection's life: a newer build upgrading the database closes this one.

import Dexie, { type EntityTable } from 'dexie';
import { markDatabaseOutdated } from './outdated';
import { replyRevisions } from './reply-revisions';
import { unreadUpkeep } from './unread-upkeep';
import { DATABASE_NAME } from '../contracts';
import { META_KEYS } from '../contracts';
import type { Post, Reply, ReplyState } from '../types';
import type { PostAttachments, PostEdits, PostPoll } from '../../shared/post-rules';
import type { Poll } from '../../shared/polls';
import type { Attachment } from '../../shared/attachments';
import type { Flag, FlagState, Notification, PostReview } from '../../shared/moderation';
import type { Op } from '../../shared/protocol';
import type { Theme } from '../../shared/theme';
import type { SavedPost } from '../../shared/members';
import type { Category } from '../../shared/categories';
import type { Conversation, Message } from '../../shared/messages';
import type { Follow, FollowLevel } from '../../shared/follows';

/**
 * A stored post: the product.md §3 fields plus `rev`, a change number that grows with every write
 * that adds a post or changes its status (not with likes), so a reader can ask what changed.
 */
export type PostRow = Post &
  PostEdits &
  PostPoll &
  PostAttachments &
  PostReview &
  ReviewTimes &
  Arrival &
  AuthorId & { rev?: number; sync?: ServerState };

/**
 * The author's public id (schema version 8): the server's random id of their account (`authorId`
 * on the wire), the `/members/:id` of their page. A local-only row has none: its author's id is
 * memberId of the email (shared/members.ts, authorKey). Not a `posts` mirror field.
 */
export interface AuthorId {
  authorId?: string;
}

/**
 * When a post or reply row was first written on this device (ms since the epoch; schema version
 * 7): a local create, a pull, an import. 0 for what the device got as a whole (the seed, a pull
 * from the start, a server search): never "new". Rows written before version 7 lack it: never new.
 * Not a `posts` mirror field; kept by every later write of the row.
 */
export interface Arrival {
  arrivedAt?: number;
}

/**
 * When a post entered the review queue (its creation or last resubmission) and when it was last
 * reviewed (ms since the epoch; schema version 6). Rows written before lack them: unknown. Not
 * `posts` mirror fields; insights read them.
 */
export interface ReviewTimes {
  submittedAt?: number;
  reviewedAt?: number;
}

/**
 * What the server last said about a synced post (connected mode only): its change number, likes
 * and status. The row's own `likes` and `status` are this plus the device's unacknowledged
 * operations (src/db/sync/overlay.ts); a post without it has never been on the server.
 */
export interface ServerState {
  seq: number;
  likes: number;
  status: Post['status'];
  /** The server's view count (rows stored before schema version 4 lack it: the row's own count stands). */
  views?: number;
  /** The server's reason of a rejection or hide (schema version 6; absent on older rows: none). */
  reason?: string | null;
  /**
   * The server's text and edits, kept only while an edit of this device is outstanding (the row
   * shows the edit on top; a refusal restores these). Absent otherwise: the row's own text is the server's.
   */
  fields?: ServerFields;
  /** The server's poll with its counts and this member's ballot (issue 42; absent on rows without a poll). */
  poll?: Poll | null;
}

/** The part of a post an edit changes, as the server last sent it. */
export type ServerFields = Pick<Post, 'title' | 'content' | 'category' | 'tags'> & Required<PostEdits>;

/**
 * A stored reply. `listed` is 1 while the reply has a place in its thread (visible or hidden) and
 * 0 once deleted, so a page of the thread is one range of the `[postId+listed+createdAt]` index.
 */
export type ReplyRow = Reply & Arrival & AuthorId & { listed: 0 | 1; sync?: ReplyServerState; rev?: number };

/** What the server last said about a synced reply (connected mode); the row adds this device's outstanding edits on top. */
export interface ReplyServerState {
  seq: number;
  content: string;
  state: ReplyState;
  editedAt: number | null;
}

/** A post this member has opened on this device (its view is counted once). */
export interface ViewedRow {
  email: string;
  postId: number;
}

/** One queued operation of the outbox (connected mode): sent in `seq` order, removed once acknowledged. */
export interface OutboxRow {
  seq?: number;
  op: Op;
  /** The post the operation is about (the temporary id of a create until the server answers). */
  postId: number;
  /** The member whose session must send it. */
  email: string;
  /** When this device made the operation (ms since the epoch; rows queued by older builds lack it). */
  at?: number;
  /** The reply the operation is about (reply operations; `postId` is then the reply's post). */
  replyId?: string;
  /**
   * Whether it carries its post's words (a new post, an edit), from its definition when it was
   * queued (ops/outbox.ts, writesPost): the post shows "Not sent yet" while it waits. Rows queued by
   * older builds lack it (posts.ts, unsentPostIds, asks the definition then).
   */
  writesPost?: boolean;
  /** Set when the server applied it but the device has not yet pulled up to `ackCursor`. */
  ackCursor?: number;
  /**
   * Not sent before this time (ms since the epoch): a deletion waits out its Undo window
   * (UNDO_WINDOW_MS); Undo removes it while it waits.
   */
  holdUntil?: number;
  /** The Undo entry (`undo:<token>` in meta, ops/undo.ts) of the deletion this operation sends. */
  undoToken?: string;
  /** When a push first took it (ms since the epoch): from then on the server may have applied it. */
  sentAt?: number;
  /** The status a review replaced (rows queued by builds before the operations' replay; unused since). */
  previousStatus?: Post['status'];
  /** The role of the member who made it (replaying it over the server's word checks its rules as theirs; older rows lack it). */
  role?: 'admin' | 'user';
  /** What a `setTheme` or `rename` replaced (schema version 7), for a rollback when the server refuses it. */
  previous?: { theme?: Theme; name?: string };
  /** How many times in a row the server said it failed on it (`failed`, or a `server_error` alone). */
  failures?: number;
  /** When the first of those failures happened (ms since the epoch). */
  firstFailedAt?: number;
  /** Set once the server kept failing on it (outbox.ts, shouldSetAside): it is not sent again on this page, and blocks nothing. */
  setAside?: true;
}

/**
 * A notification of the member `email` (schema version 6). `unread` is 1 while `readAt` is null
 * (IndexedDB cannot index null), so the unread count is one index range. `sync` (connected mode) is
 * the server's last word: a local `readAt` stands on it while a readNotifications op is outstanding.
 */
export type NotificationRow = Notification & {
  email: string;
  unread: 0 | 1;
  /** The actor's public id and role (schema version 8, connected mode): their current name follows a rename; the Admin badge. */
  actorId?: string | null;
  actorRole?: string | null;
  sync?: { seq: number; readAt: number | null };
};

/**
 * A flag (schema version 6). `target` is targetKey() of shared/moderation.ts; `open` is 1 while
 * its state is `open` (the Flags queue is one index range). `sync` (connected mode): the server's
 * last word; the row's `state` adds this device's outstanding dismissals on top.
 */
export type FlagRow = Flag & { target: string; open: 0 | 1; sync?: { seq: number; state: FlagState } };

/** Likes given on this device per UTC day ("YYYY-MM-DD"), for the device's insights (schema version 6). */
export interface LikeDayRow {
  day: string;
  likes: number;
}

/**
 * A member's saved post (schema version 7): `saved` false is an unsave (kept while it may still
 * have to reach the server, and as the server's last word). `sync` (connected mode): the server's
 * last word; the row's own fields add this device's outstanding `save` operations on top.
 */
export type SavedRow = SavedPost & { email: string; sync?: SavedPost & { seq: number } };

/**
 * What a member chose on this device (schema version 7): the theme, and (connected mode) the
 * server's last word on the theme and name (`sync`), which a refused operation puts back.
 */
export interface PreferencesRow {
  email: string;
  theme: Theme;
  /** Following (issue 62): writing a post or replying makes the member watch it (absent: yes). */
  autoWatch?: boolean;
  /**
   * The server's word (`silenced`, protocol 6: the staff silenced the member; absent before: no;
   * issue 59: why, and until when, ms or null for no end date).
   */
  sync?: {
    seq: number;
    theme: Theme;
    name: string;
    silenced?: boolean;
    silenceReason?: string | null;
    silencedUntil?: number | null;
    autoWatch?: boolean;
  };
}

/** A post (`post:<id>`) or reply (`reply:<id>`) a member has seen on this device (what's new; schema version 7). */
export interface SeenRow {
  email: string;
  item: string;
}

/**
 * A file attached on this device (schema version 10, issue 42): its bytes as they are sent (an image
 * already resized and re-encoded), kept with the post that names it. `uploaded` is 1 once the server
 * holds it (connected mode; local-only files stay 0: they live here only). Keyed by SHA-256.
 */
export interface FileRow extends Attachment {
  blob: Blob;
  /** The member who attached it here. */
  email: string;
  uploaded: 0 | 1;
  /** When the server last took it from this device for `email` (an upload older than a day may have been collected). */
  uploadedAt?: number;
  at: number;
}

/** An account created on this browser; `hash` and `salt` never leave IndexedDB. */
export interface AccountRow {
  email: string;
  name: string;
  /** Connected mode only: the role the server gave at the last online sign-in on this device. */
  role?: 'admin' | 'user';
  createdAt: number;
  hash?: string;
  salt?: string;
  iterations?: number;
  /** Connected mode (issue 63): the account has two-step verification on, so no verifier is kept and an offline sign-in needs the network. */
  twoStep?: boolean;
}

/** Small named values: the seed flag, the session copy, mirror bookkeeping. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * Version 1. posts: newest-first reads of one status (`[status+id]`), of one status and category
 * (`[status+category+id]`) and of one author (`[authorEmail+id]`).
 */
export const SCHEMA_V1 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id]',
  accounts: 'email',
  meta: 'key',
} as const;

/**
 * Version 2 adds the `rev` index: the search index (a Web Worker) follows new posts and status
 * changes through it. The upgrade numbers every existing post in id order.
 */
export const SCHEMA_V2 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id], rev',
} as const;

/**
 * Version 3 adds the outbox of connected mode: operations in the order they were made (`++seq`),
 * found by post (`postId`, for the likes not yet acknowledged) and by member (`email`). Existing
 * posts need no change: a post without `sync` is one the server has not seen.
 */
export const SCHEMA_V3 = {
  outbox: '++seq, postId, email',
} as const;

/**
 * Version 4 adds replies: a page of a thread, oldest first (`[postId+listed+createdAt]`), and the
 * count of a post's visible replies (`[postId+state]`); and `viewed`, the posts each member has
 * opened here. A connected device pulls again from the start, so it gets the replies written
 * while it ran a build without them. A post's `comments` is its number of visible replies from
 * now on, and no post has any yet: an older build's number (the sample posts' 8, 12 and 15, an
 * import's) becomes 0, and the `posts` mirror is written again with it.
 */
export const SCHEMA_V4 = {
  replies: 'id, [postId+listed+createdAt], [postId+state]',
  viewed: '[email+postId]',
} as const;

/**
 * Version 5 changes no table: it is the first build that speaks protocol version 3, whose pulls
 * carry the posts deleted on the server (`removed`). A connected device pulls again from the
 * start once, so a deletion it pulled past while it spoke version 2 (which left the post out of
 * its pulls) still reaches it and the post leaves it.
 */
export const SCHEMA_V5 = {} as const;

/**
 * Version 6 (moderation and notifications, protocol 4): `notifications`, a member's list newest
 * first (`[email+createdAt]`) and unread count (`[email+unread]`); `flags`, by target (`target`),
 * a member's flag on a target (`[flaggerEmail+target]`) and the open ones by target
 * (`[open+target]`, the Flags queue and its count); `likeDays`, likes per UTC day. Posts gain
 * `reason`, `submittedAt` and `reviewedAt` (not indexed). A connected device pulls again from
 * the start once, so it gets the reasons, notifications and flags its older build never asked for.
 */
export const SCHEMA_V6 = {
  notifications: 'id, [email+createdAt], [email+unread]',
  flags: 'id, target, [flaggerEmail+target], [open+target]',
  likeDays: 'day',
} as const;

/**
 * Version 7 (protocol 5): `saved`, a member's saved posts (`[email+postId]`) listed by
 * time (`[email+at]`); `preferences`, a member's theme on this device; `seen`, what each member
 * has seen of what's new. Posts and replies gain `arrivedAt` (Arrival), indexed with the status
 * (`[status+arrivedAt]`) and the post (`[postId+arrivedAt]`) so "new since" is one index range even
 * at 100,000 posts; rows from before have none (never new). A connected device pulls again from
 * the start once, so it gets the saved posts and preferences its older build never asked for.
 */
export const SCHEMA_V7 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id], rev, [status+arrivedAt]',
  replies: 'id, [postId+listed+createdAt], [postId+state], [postId+arrivedAt]',
  saved: '[email+postId], [email+at]',
  preferences: 'email',
  seen: '[email+item]',
} as const;

/**
 * Version 8 (safe with strangers, protocol 6): posts and replies by author (`authorId`), so a
 * rename pulled as one `members` row renames what the member wrote here, and a member page reads
 * one index range. Notifications by actor (`actorId`). On a connected device another member's email
 * leaves every row (only the member's own and, for admins, the server's next pull bring emails),
 * every synced row is marked as older than any change (sync.seq 0) and the cursor goes back to the
 * start once: the pull from the start rewrites each row with its author's id.
 */
export const SCHEMA_V8 = {
  posts: 'id, [status+id], [status+category+id], [authorEmail+id], rev, [status+arrivedAt], authorId',
  replies: 'id, [postId+listed+createdAt], [postId+state], [postId+arrivedAt], authorId',
  notifications: 'id, [email+createdAt], [email+unread], actorId',
} as const;

/**
 * Version 9 (search covers replies, issue 39): replies numbered by change (`rev`, taken on every
 * write by storage/reply-revisions.ts), so the search worker reads only the replies written since it
 * last looked. The upgrade numbers the replies already here.
 */
export const SCHEMA_V9 = {
  replies: 'id, [postId+listed+createdAt], [postId+state], [postId+arrivedAt], authorId, rev',
} as const;

/** Version 10 (attachments, issue 42): the files attached on this device, by SHA-256; those still to upload by `uploaded`. */
export const SCHEMA_V10 = {
  files: 'sha256, [email+uploaded]',
} as const;

/**
 * Version 11 (a local-only import of 100,000 posts, issue 44): the forum's long tail packed 500
 * approved posts to a record (db/posts/packed.ts), keyed by the low end of its id range (`lo`) and
 * found by its high end (`hi`). A packed post is in no other table until it is unpacked.
 */
export const SCHEMA_V11 = {
  postBlocks: 'lo, hi',
} as const;

/**
 * Version 12 (issue 61): the groups this device's member may see, as the server sent them (admins:
 * every group, and every group's members), keyed by id; a member's place in a group by
 * [groupId+memberId]. Only a connected device holds any: the server's word, never written by an
 * operation here.
 */
export const SCHEMA_V12 = {
  groups: 'id',
  groupMembers: '[groupId+memberId], groupId',
  categories: 'id',
  // Messages (connected mode only): the signed-in member's conversations (`email`: whose; newest
  // first by `updatedAt`) and their messages (by conversation, oldest first). A device holds only the
  // conversations its member takes part in and has not left.
  conversations: 'id, [email+updatedAt]',
  messages: 'id, [conversationId+createdAt]',
} as const;

/**
 * Version 13 (following, issue 62): the member's levels on posts, categories and tags (`follows`,
 * by [email+kind+target]) and their read position in each post they read (`reads`, by
 * [email+postId]; `[email+unread]` finds the posts with new replies at once; `postId`: the rows a
 * write of a post's replies recounts, db/follows/unread.ts). Both are the server's
 * word (`sync`) with this device's outstanding operations on top, as saved posts are. Pulled from the
 * start once, so the levels set before this build came arrive.
 */
export const SCHEMA_V13 = {
  follows: '[email+kind+target], [email+kind]',
  reads: '[email+postId], [email+unread], postId',
} as const;

/** A level as the device holds it (follows.ts): the member's (`email`), shown; `sync`: the server's word. */
export interface FollowRow extends Follow {
  email: string;
  sync?: { level: FollowLevel; at: number; seq: number };
}

/**
 * A read position as the device holds it: `readTo` the later of the server's and this device's; and
 * `unread`, kept with it by every write of the post's replies or the position (db/follows), the
 * number of visible replies by others after `readTo` that this device holds.
 */
export interface ReadRow {
  email: string;
  postId: number;
  readTo: number;
  unread: number;
  sync?: { readTo: number; seq: number };
}

/** A group as this device holds it: the Group of shared/groups.ts, `member` 1 when its member is in it, and the change number. */
export interface GroupRow {
  id: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  member: 0 | 1;
  seq: number;
}

/**
 * A category as the server last sent it (the six defaults are built in: a row of one of their ids
 * replaces it); `hidden` 1: the member may not see it any more (a default's id stays hidden).
 */
export interface CategoryRow extends Category {
  hidden: 0 | 1;
  seq: number;
}

/** A member of a group, on an admin's device: their public id and name. */
export interface GroupMemberRow {
  groupId: string;
  memberId: string;
  name: string;
  seq: number;
}

/**
 * A conversation on the device: the server's (or this device's, while its start is outstanding), for
 * member `email`, with when they last read it (null: never) and whether they left it (here, before the
 * server said so: the lists leave it out, and its pull takes it off the device).
 */
export type ConversationRow = Conversation & { email: string; lastReadAt: number | null; left: boolean; seq?: number };
/** A message on the device (`seq`: the server's change number; absent while its send is outstanding). */
export type MessageRow = Message & { seq?: number };

/** Approved posts packed together (SCHEMA_V11): their ids all lie in [lo, hi], and no two blocks' ranges overlap. */
export interface PostBlockRow {
  lo: number;
  hi: number;
  /** The packed posts, newest first, as a backup holds them (their `comments` is recounted on unpacking). */
  posts: Post[];
  /** Their replies, as a backup holds them. */
  replies: Reply[];
}

export class InsightDatabase extends Dexie {
  posts!: EntityTable<PostRow, 'id'>;
  accounts!: EntityTable<AccountRow, 'email'>;
  meta!: EntityTable<MetaRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;
  replies!: EntityTable<ReplyRow, 'id'>;
  viewed!: Dexie.Table<ViewedRow, [string, number]>;
  notifications!: EntityTable<NotificationRow, 'id'>;
  flags!: EntityTable<FlagRow, 'id'>;
  likeDays!: EntityTable<LikeDayRow, 'day'>;
  saved!: Dexie.Table<SavedRow, [string, number]>;
  preferences!: EntityTable<PreferencesRow, 'email'>;
  seen!: Dexie.Table<SeenRow, [string, string]>;
  files!: EntityTable<FileRow, 'sha256'>;
  postBlocks!: EntityTable<PostBlockRow, 'lo'>;
  groups!: EntityTable<GroupRow, 'id'>;
  groupMembers!: Dexie.Table<GroupMemberRow, [string, string]>;
  categories!: EntityTable<CategoryRow, 'id'>;
  conversations!: EntityTable<ConversationRow, 'id'>;
  messages!: EntityTable<MessageRow, 'id'>;
  follows!: Dexie.Table<FollowRow, [string, string, string]>;
  reads!: Dexie.Table<ReadRow, [string, number]>;

  constructor(name: string = DATABASE_NAME) {
    // Relaxed durability: a commit is done once the OS has the data, not after an fsync. Every
    // transaction stays atomic (a killed browser loses nothing committed); only a power cut
    // could lose the last moment's writes. Measured here: a like reached other tabs in ~130 ms
    // with fsync-per-commit, see bench/results.md for the figure with relaxed.
    super(name, { chromeTransactionDurability: 'relaxed' });
    this.version(1).stores(SCHEMA_V1);
    this.version(2)
      .stores(SCHEMA_V2)
      .upgrade(async (tx) => {
        let rev = 0;
        await tx
          .table<PostRow, number>('posts')
          .toCollection()
          .modify((post) => {
            rev += 1;
            post.rev = rev;
          });
      });
    this.version(3).stores(SCHEMA_V3);
    this.version(4)
      .stores(SCHEMA_V4)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
        const recounted = await tx
          .table<PostRow, number>('posts')
          .filter((post) => post.comments !== 0)
          .modify({ comments: 0 });
        if (recounted > 0) {
          // One more write to posts (revisions.ts), so the mirror knows its copy is stale.
          const changes = await meta.get(META_KEYS.changes);
          await meta.put({ key: META_KEYS.changes, value: (typeof changes?.value === 'number' ? changes.value : 0) + 1 });
        }
      });
    this.version(5)
      .stores(SCHEMA_V5)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
      });
    this.version(6)
      .stores(SCHEMA_V6)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
      });
    this.version(7)
      .stores(SCHEMA_V7)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
      });
    this.version(8)
      .stores(SCHEMA_V8)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        if (!(await meta.get(META_KEYS.syncCursor))) return;
        const owner = (await meta.get(META_KEYS.syncOwner))?.value;
        // An admin's device gets the emails back from its pull from the start.
        let blanked = 0;
        const forget = (row: { authorEmail: string; sync?: { seq: number } }) => {
          if (!row.sync) return;
          row.sync.seq = 0;
          if (row.authorEmail === owner || row.authorEmail === '') return;
          row.authorEmail = '';
          blanked += 1;
        };
        await tx.table<PostRow, number>('posts').toCollection().modify(forget);
        await tx.table<ReplyRow, string>('replies').toCollection().modify(forget);
        await meta.put({ key: META_KEYS.syncCursor, value: 0 });
        if (blanked === 0) return;
        // One more write to posts (revisions.ts), so the mirror writes the blanked emails.
        const changes = await meta.get(META_KEYS.changes);
        await meta.put({ key: META_KEYS.changes, value: (typeof changes?.value === 'number' ? changes.value : 0) + 1 });
      });
    this.version(9)
      .stores(SCHEMA_V9)
      .upgrade(async (tx) => {
        await tx
          .table<ReplyRow, string>('replies')
          .toCollection()
          .modify((reply) => {
            reply.rev = 1;
          });
      });
    this.version(10).stores(SCHEMA_V10);
    this.version(11).stores(SCHEMA_V11);
    this.version(12)
      .stores(SCHEMA_V12)
      .upgrade(async (tx) => {
        // Pulled from the start once: the groups made before this build came are below the cursor.
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
      });
    this.version(13)
      .stores(SCHEMA_V13)
      .upgrade(async (tx) => {
        // Pulled from the start once: the levels and read positions kept before this build came are below the cursor.
        const meta = tx.table<MetaRow, string>('meta');
        if (await meta.get(META_KEYS.syncCursor)) await meta.put({ key: META_KEYS.syncCursor, value: 0 });
      });
    this.use(replyRevisions);
    this.use(unreadUpkeep);
    this.on('versionchange', () => {
      // Close at once so the other tab's upgrade is never blocked, and stay closed: this code
      // only knows the old schema, so it must not write again until the page reloads.
      this.close();
      markDatabaseOutdated();
      return false;
    });
  }
}

export const db = new InsightDatabase();
