// The names that outlive a release: the database, every localStorage key, the fields of a post
// in order, the backup format and every key of the `meta` table. Browsers and backup files keep
// them, so CHANGING ANY OF THEM NEEDS A MIGRATION (a new Dexie version with its upgrade, or a
// reader that still accepts the old name). Adding one is free; renaming or removing one is not.

import type { Post, Reply } from '../shared/post-rules';

/** The IndexedDB database, the source of truth for posts. */
export const DATABASE_NAME = 'insight-exchange';

/** localStorage key of the signed-in user: JSON `{ email, name, role }`. */
export const USER_KEY = 'insightExchangeUser';

/**
 * Cache Storage cache and request URL of the forum's first-page snapshot (JSON `{ owner, token, css, html }`),
 * also read by the boot script (src/boot/forum-snapshot.ts, which the build bundles with them) and the service worker.
 */
export const FORUM_SNAPSHOT_CACHE = 'insight-forum-snapshot';
export const FORUM_SNAPSHOT_URL = '/__forum-snapshot';
/**
 * The header each stored snapshot carries: its content's SHA-256, by which the service worker knows the
 * page it composed from that snapshot is still the one stored (src/sw/composed-pages.ts).
 */
export const SNAPSHOT_ID_HEADER = 'x-snapshot-id';
/** Cache Storage cache of attachments fetched from the server (issue 42), kept by the service worker within a bound; emptied at sign-in and sign-out. */
export const ATTACHMENT_CACHE = 'insight-attachments';
/** Cache Storage cache of the files of the member's saved posts and their replies: read first by the service worker and never evicted by it; emptied at sign-in and sign-out. */
export const SAVED_ATTACHMENT_CACHE = 'insight-attachments-saved';
/** A post page's snapshot in the same cache (the same JSON): `/__forum-snapshot/posts/<id>`. */
export const POST_SNAPSHOT_PREFIX = `${FORUM_SNAPSHOT_URL}/posts/`;

/**
 * The snapshot a page at `pathname` (with `search` and `hash`) may paint: /forum and a post's page
 * (its first page of replies), both with nothing after the path; null for every other address.
 */
export function snapshotUrlFor(pathname: string, search = '', hash = ''): string | null {
  if (search || hash) return null;
  if (pathname === '/forum') return FORUM_SNAPSHOT_URL;
  const post = /^\/posts\/([1-9][0-9]{0,15})$/.exec(pathname);
  return post ? `${POST_SNAPSHOT_PREFIX}${post[1]}` : null;
}
/**
 * Cookie that lets src/boot/forum-snapshot.ts paint the snapshot: a random token, the same as the
 * snapshot's `token`, set when a snapshot is stored and removed at every sign-in and sign-out. A
 * cookie because the first read of localStorage loads the whole of it (the 4 MB `posts` mirror
 * too), which cost more than the rest of the first paint.
 */
export const FORUM_SNAPSHOT_COOKIE = 'insight-snapshot';

/** localStorage key of the legacy posts array (a compatibility mirror of IndexedDB for an older build). */
export const POSTS_KEY = 'posts';

/** Prefix of the keys that keep an unreadable `posts` value aside: `posts.corrupt-<timestamp>` (localStorage or meta). */
export const CORRUPT_POSTS_PREFIX = 'posts.corrupt-';

/** Prefix of the last-moment copy of a member's New Post draft, written when the page goes away. */
export const DRAFT_KEY_PREFIX = 'insightExchangeDraft:';

/** The fields of a post, in the order every backup, export and the `posts` mirror write them. */
export const POST_FIELDS = [
  'id',
  'title',
  'content',
  'category',
  'author',
  'authorEmail',
  'authorRole',
  'likes',
  'comments',
  'views',
  'date',
  'isTopContributor',
  'tags',
  'status',
] as const satisfies readonly (keyof Post)[];

/** The fields of a reply, in the order every backup writes them (src/shared/post-rules.ts, Reply). */
export const REPLY_FIELDS = [
  'id',
  'postId',
  'author',
  'authorEmail',
  'authorRole',
  'content',
  'quoteId',
  'createdAt',
  'editedAt',
  'state',
] as const satisfies readonly (keyof Reply)[];

/** The `format` field of a backup file. */
export const BACKUP_FORMAT = 'insight-exchange-backup';

/**
 * The newest backup version this build writes and reads (an import accepts 1 up to this).
 * 1: `posts` only. 2: `replies` after `posts` (REPLY_FIELDS); a post's `comments` is derived from them.
 */
export const BACKUP_VERSION = 2;

/** Every fixed key of the `meta` table and what it holds. */
export const META_KEYS = {
  /** Timestamp of the first start: the sample posts are never written again. */
  seeded: 'seeded',
  /** Counter of writes to posts (storage/revisions.ts). */
  changes: 'changes',
  /** The IndexedDB copy of the session (accounts/session-copy.ts). */
  sessionCopy: 'session',
  /** Hashes of the `posts` values this build wrote itself (mirror). */
  mirrorOwnWrites: 'mirror:own-writes',
  /** old→new hash pairs of external `posts` changes already applied (mirror). */
  mirrorApplied: 'mirror:applied',
  /** What the `posts` copy holds, as of its last write (mirror). */
  mirrorStats: 'mirror:stats',
  /** When this device first met its server: it stays connected from then on (sync). */
  syncConnected: 'sync:connected',
  /** The server change number up to which this device has applied every change (sync). */
  syncCursor: 'sync:cursor',
  /** When the last push and pull both succeeded (sync). */
  syncLastSyncAt: 'sync:last-sync-at',
  /** The member whose private posts this device holds (sync). */
  syncOwner: 'sync:owner',
  /** Set once this device's own sample posts were removed on meeting a server (sync). */
  syncSamplesRemoved: 'sync:samples-removed',
  /** Set by a sign-out the server could not hear (offline); it is sent when the server answers (sync). */
  syncSignOutPending: 'sync:sign-out-pending',
  /**
   * The ids of the posts last removed from this device (deleted, or moved to another id), numbered
   * (`{ last, ids }`): the search index drops them, and the `posts` copy's import never adds them back (storage/removals.ts).
   */
  removedPosts: 'removed-posts',
  /**
   * Set while this device holds only part of the forum: `freed` after Free up space,
   * `refetch` once Download the whole forum asked for a pull from the start, `refetching` while
   * that pull runs; removed when it has finished (db/sync/free-space.ts, db/sync/apply-pull.ts).
   * The key keeps the prefix it was first stored under: devices already hold it.
   */
  holdsPart: 'comfort:holds-part',
  /**
   * A window's first sync (issue 44): the change head its pages were read after; the pull from the
   * start asks for a post's rows only above it, and this key goes when that pull has ended.
   */
  windowHead: 'window:head',
  /** The id down to which this device holds every approved post it may see (0: all of them; db/sync/window.ts). */
  windowFloor: 'window:floor',
  /**
   * How many approved posts a local-only device holds packed (db/posts/packed.ts), by category and
   * in all (`All`); absent when none are.
   */
  packedCounts: 'packed:counts',
  /** Set by Download the whole forum: the device keeps everything (no budget) until Free up space. */
  windowWhole: 'window:whole',
  /** Set while a pull that started from change 0 is under way: what it stores is not "new" (what's new). */
  syncFullPull: 'sync:full-pull',
} as const;

/** Prefixes of the `meta` keys made per member or per event. */
export const META_KEY_PREFIXES = {
  /** `member-id:<email>`: the member's public id on their server (members/own-id.ts), from their sign-in's answer. */
  memberId: 'member-id:',
  /** `draft:<email>`: a member's New Post draft (posts/drafts.ts). */
  draft: 'draft:',
  /** `replyDraft:<email>:<postId>`: a member's half-written reply to a post (replies/replies.ts). */
  replyDraft: 'replyDraft:',
  /** `editDraft:<email>:<postId>`: the text of a member's edit of a post the server refused (kept, never lost). */
  editDraft: 'editDraft:',
  /** `keptDraft:<email>:<id>`: a reply the member wrote to a post they may no longer see, kept to copy (sync/revoked.ts). */
  keptDraft: 'keptDraft:',
  /** `messageDraft:<email>:<conversationId>`: a message the server refused, with its sentence (messages/drafts.ts). */
  messageDraft: 'messageDraft:',
  /** `newMessageDraft:<email>`: a new conversation the server refused, with its sentence (messages/drafts.ts). */
  newMessageDraft: 'newMessageDraft:',
  /** `nameDraft:<email>`: a display name the server refused (taken), with its sentence, for Edit Profile (preferences.ts). */
  nameDraft: 'nameDraft:',
  /** `undo:<token>`: what a deletion removed, kept until its Undo window has passed (db/ops/undo.ts). */
  undo: 'undo:',
  /** `posts.corrupt-<timestamp>`: an unreadable `posts` value kept aside when localStorage was full. */
  corruptPosts: CORRUPT_POSTS_PREFIX,
  /** `sync:upload-decided:<email>`: the member answered the upload question (sync/local-posts.ts). */
  syncUploadDecided: 'sync:upload-decided:',
  /** `sync:rekeyed:<temporary id>`: the server id a post created on this device moved to (sync). */
  syncRekeyed: 'sync:rekeyed:',
  /** `notifications:system:<email>`: the member turned system notifications on for this device (notifications). */
  systemNotifications: 'notifications:system:',
  /** `visit:<email>`: when the member's current visit (page load) began, for what's new (posts/whats-new.ts). */
  visit: 'visit:',
} as const;

/** The `meta` key of a member's reply draft on one post. */
export const replyDraftMetaKey = (email: string, postId: number) =>
  `${META_KEY_PREFIXES.replyDraft}${email.trim().toLowerCase()}:${postId}`;

/** The `meta` key of a member's kept draft `id` (a reply that can no longer be sent; the prefix alone: all of theirs). */
export const keptDraftMetaKey = (email: string, id = '') => `${META_KEY_PREFIXES.keptDraft}${email.trim().toLowerCase()}:${id}`;

/** The `meta` key of a member's kept edit of one post. */
export const editDraftMetaKey = (email: string, postId: number) => `${META_KEY_PREFIXES.editDraft}${email.trim().toLowerCase()}:${postId}`;

/** The `meta` key of a member's refused display name. */
export const nameDraftMetaKey = (email: string) => `${META_KEY_PREFIXES.nameDraft}${email.trim().toLowerCase()}`;

/** The `meta` key of a member's New Post draft (emails compared trimmed, in lower case). */
export const draftMetaKey = (email: string) => `${META_KEY_PREFIXES.draft}${email.trim().toLowerCase()}`;

/** Any key the `meta` table may hold. */
export type MetaKey = (typeof META_KEYS)[keyof typeof META_KEYS] | `${(typeof META_KEY_PREFIXES)[keyof typeof META_KEY_PREFIXES]}${string}`;

/** The message a page that no service worker controls posts to the active worker, which then claims it. */
export const SW_CLAIM_MESSAGE = 'CLAIM';
