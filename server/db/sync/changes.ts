// Pull by cursor: the posts (and, from protocol version 2, the replies; from 3, the ids of deleted
// posts; from 4, the viewer's notifications and the flags they may see; from 5, the viewer's saved
// posts and preferences; from 8, the viewer's levels and read positions) a viewer may see whose
// change number is above the cursor, in pages. The page stops at the
// head read first, and every change at or below the head has committed (change_head's row lock
// orders commits), so a cursor handed out never skips a late commit. Several rows can share one
// change number (a reply and its post; the posts of one group commit of likes): a page never ends
// between two of them.
import {
  notificationRecipientSql,
  categorySeenSql,
  postVisibleSql,
  publicPostSql,
  notificationSeenSql,
  sqlViewer,
} from '../../../src/shared/visibility';
import { isTheme } from '../../../src/shared/theme';
import { WATCHING_PROTOCOL } from '../../../src/shared/moderation';
import type {
  PullResponse,
  WireCategory,
  WireGroup,
  WireGroupMember,
  WireMember,
  WirePost,
  WireFollow,
  WirePreferences,
  WireRead,
  WireReply,
  WireSaved,
} from '../../../src/shared/protocol';
import type { Sql } from '../storage/adapter';
import type { UserRow } from '../members/accounts';
import { withAuthors } from '../members/authors';
import { flagColumns, toWireFlag } from '../flags/flag-rows';
import { notificationColumns, toWireNotification } from '../notifications/notification-rows';
import { readablePostColumns, toWirePost, type PostRow } from '../posts/post-rows';
import { withPolls } from '../posts/poll-rows';
import { readableReplyColumns, toWireReply, type ReplyRow } from '../replies/reply-rows';
import { toWireConversation, toWireMessage } from '../messages/message-rows';

/** The newest change number. */
export async function changeHead(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ seq: unknown }>('SELECT seq FROM change_head');
  return Number(row?.seq ?? 0);
}

/** The keys a version-5 pull added: saved posts and preferences. */
type ComfortKeys = 'saved' | 'preferences';
/** The keys a version-7 pull added: groups and their members, categories, conversations and messages. */
type SpacesKeys = 'groups' | 'groupMembers' | 'categories' | 'conversations' | 'messages';
/** The keys a version-8 pull added: the viewer's levels and read positions. */
type FollowingKeys = 'follows' | 'reads';
/** A page of a version-7 pull: none of version 8's (and no `autoWatch` in its preferences). */
export type SpacesPage = Omit<PullResponse, FollowingKeys>;
/** A page of a version-6 pull: none of version 7's. */
export type MembersPage = Omit<SpacesPage, SpacesKeys>;
/** A page of a version-5 pull: no members. */
export type ComfortPage = Omit<MembersPage, 'members'>;
/** A page of a version-1 pull: posts only. */
export type PostsPage = Omit<ComfortPage, 'replies' | 'removed' | 'notifications' | 'flags' | ComfortKeys>;
/** A page of a version-2 pull: posts and replies, no removed posts. */
export type ConversationsPage = Omit<ComfortPage, 'removed' | 'notifications' | 'flags' | ComfortKeys>;
/** A page of a version-3 pull: posts, replies and removed posts. */
export type WritingPage = Omit<ComfortPage, 'notifications' | 'flags' | ComfortKeys>;
/** A page of a version-4 pull: no saved posts nor preferences. */
export type ModerationPage = Omit<ComfortPage, ComfortKeys>;

/**
 * What a page carries besides posts, by protocol version: replies from 2, removed posts from 3,
 * notifications and flags from 4, saved posts and preferences from 5.
 */
interface Shape {
  replies: boolean;
  removed: boolean;
  moderation: boolean;
  comfort: boolean;
  members: boolean;
  spaces: boolean;
  following: boolean;
}

/**
 * One kind of row a page carries: its columns, the tables it is read from, the condition of who
 * may see it (placeholders: $3 admin, $4 email, $6 the viewer's user id), its change number column,
 * and the order of its rows within one change number.
 */
interface Kind {
  key:
    | 'posts'
    | 'replies'
    | 'removed'
    | 'notifications'
    | 'flags'
    | 'saved'
    | 'preferences'
    | 'members'
    | 'groups'
    | 'groupMembers'
    | 'categories'
    | 'conversations'
    | 'messages'
    | 'follows'
    | 'reads';
  columns: string;
  from: string;
  visible: string;
  seq: string;
  order: string;
  /** A post's own rows (posts, replies, removed posts): a window's first sync takes them only above `postsAfter`. */
  ofPosts?: boolean;
}

const POSTS: Kind = {
  key: 'posts',
  columns: readablePostColumns('y', '$3', '$4'),
  from: 'posts y',
  visible: postVisibleSql(sqlViewer('$3', '$4'), 'y'),
  seq: 'y.seq',
  order: 'x.seq, x.id',
  ofPosts: true,
};
const REPLIES: Kind = {
  key: 'replies',
  columns: readableReplyColumns('x', '$3'),
  from: 'replies x JOIN posts y ON y.id = x.post_id',
  visible: postVisibleSql(sqlViewer('$3', '$4'), 'y'),
  seq: 'x.seq',
  order: 'x.seq, x.created_at',
  ofPosts: true,
};
// A deleted post's tombstone goes to whoever could see it: every member for an approved post, its
// author and the admins for a pending or rejected one (an id and a number, never its content).
// A post an admin hid (hidden_at, until it is approved again) leaves the view of every member but
// its author: the members who could see it in its category get the same tombstone, so their devices
// drop it and its replies. So does a post moved by an edit (`moved`) to a category a member may not
// see (public to private, or to other groups), for the members who could see it approved in a
// category it left (`moved_from`; unknown for a post moved before it was kept: everyone who may not
// see it): they held it there. A deleted post goes to those too (a device offline across the move or
// the hide and the deletion). Nobody else is told it exists.
const removedViewer = sqlViewer('$3', '$4');
const removedSeen = postVisibleSql(removedViewer, 'y');
const removedHeld = `((y.hidden_at IS NOT NULL AND y.status <> 'approved' AND ${categorySeenSql(removedViewer, 'y')})
  OR (y.moved AND y.moved_from IS NULL)
  OR EXISTS (SELECT 1 FROM unnest(y.moved_from) AS mf(category) WHERE ${categorySeenSql(removedViewer, 'mf')}))`;
const REMOVED: Kind = {
  key: 'removed',
  columns: 'y.id, y.seq',
  from: `(SELECT id, seq, status, author_email, category, true AS gone, hidden_at, moved, moved_from FROM deleted_posts
    UNION ALL SELECT id, seq, status, author_email, category, false AS gone, hidden_at, moved, moved_from FROM posts
      WHERE (hidden_at IS NOT NULL AND status <> 'approved') OR (moved AND status = 'approved')) y`,
  visible: `(CASE WHEN y.gone THEN ${removedSeen} OR ${removedHeld} ELSE NOT ${removedSeen} AND ${removedHeld} END)`,
  seq: 'y.seq',
  order: 'x.seq, x.id',
  ofPosts: true,
};
// Version 4: a member's own notifications; every flag to admins, a member's own flags to them.
// Only while the member may still see what it names (maySeeNotification: its post, and its reply):
// none about a post deleted, hidden from them, or in a category they may no longer see (taken out
// of its group), nor a reply hidden since. A device that held one drops it with the post's
// tombstone (or the category's posts); a new device never gets it.
const NOTIFICATIONS: Kind = {
  key: 'notifications',
  columns: notificationColumns('y', 'a'),
  from: 'notifications y LEFT JOIN users a ON a.id = y.actor_id',
  visible: `${notificationRecipientSql('y', '$6')} AND ${notificationSeenSql('y')}`,
  seq: 'y.seq',
  order: 'x.seq, x.created_at, x.id',
};

/** Whether the viewer ($6; $3 an admin) may see the category of id `id`: everyone's, or one of their groups'. */
const seenCategory = (id: string) =>
  `($3::boolean OR NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = ${id} AND c.see_groups IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM group_members g WHERE g.user_id = $6 AND g.in_group AND g.group_id = ANY(c.see_groups))))`;

const FLAGS: Kind = {
  key: 'flags',
  columns: flagColumns('y', 'u'),
  from: 'flags y JOIN users u ON u.id = y.user_id',
  // A member's own, but never on a post in a private category they may not see (any more).
  visible: `($3::boolean OR (y.user_id = $6 AND NOT EXISTS (SELECT 1 FROM posts fp WHERE fp.id = y.post_id AND NOT ${seenCategory('fp.category')})))`,
  seq: 'y.seq',
  order: 'x.seq, x.created_at, x.id',
};

// Version 5: a member's own saved posts (an unsave too: saved false), whatever became of the post
// since (the device keeps what it holds), but never one in a private category they may not see (any
// more): its id is the space's to know (seen again, the row takes that change, as the posts do); their preferences, one row at most, its change number
// the last change of theme or name (prefs_seq; 0, never changed, is never above a cursor).
const SAVED: Kind = {
  key: 'saved',
  columns: 'y.post_id, y.saved, y.at, y.seq',
  from: 'saved_posts y',
  visible: `y.user_id = $6 AND NOT EXISTS (SELECT 1 FROM posts sp WHERE sp.id = y.post_id AND NOT ${seenCategory('sp.category')})`,
  seq: 'y.seq',
  order: 'x.seq, x.post_id',
};
const PREFERENCES: Kind = {
  key: 'preferences',
  columns: 'y.theme, y.name, y.silenced, y.silence_reason, y.silenced_until, y.auto_watch, y.prefs_seq AS seq',
  from: 'users y',
  visible: 'y.id = $6',
  seq: 'y.prefs_seq',
  order: 'x.seq',
};

// Version 6: every member renamed (or whose role changed) in the range, one row each: devices give
// what they wrote the new name (posts and replies are named from the account at every read, so a
// rename changes no post). The email goes to admins only (their devices name flaggers by it).
const MEMBERS: Kind = {
  key: 'members',
  columns: `y.member_id AS id, y.name, y.role, CASE WHEN $3::boolean THEN y.email END AS email, y.name_seq AS seq`,
  from: 'users y',
  visible: 'y.member_id IS NOT NULL',
  seq: 'y.name_seq',
  order: 'x.seq, x.id',
};

// Version 7: the groups the viewer may see: every group to admins, to a member the groups they are
// in (a change of the group or of their place in it); a member taken out gets the group once more,
// `gone` and blank, at the change that took them out (and nothing of it afterwards). Never another
// member's place in a group: those rows (GROUP_MEMBERS) go to admins alone.
const inGroup = 'coalesce(m.in_group, false)';
const GROUPS: Kind = {
  key: 'groups',
  columns: `y.id, CASE WHEN $3::boolean OR ${inGroup} THEN y.name ELSE '' END AS name,
    CASE WHEN $3::boolean OR ${inGroup} THEN y.description ELSE '' END AS description,
    CASE WHEN $3::boolean OR ${inGroup} THEN y.created_at ELSE 0 END AS created_at,
    CASE WHEN $3::boolean OR ${inGroup} THEN y.updated_at ELSE 0 END AS updated_at,
    ${inGroup} AS member, NOT ($3::boolean OR ${inGroup}) AS gone,
    (CASE WHEN $3::boolean OR ${inGroup} THEN greatest(y.seq, coalesce(m.seq, 0)) ELSE m.seq END) AS seq`,
  from: 'groups y LEFT JOIN group_members m ON m.group_id = y.id AND m.user_id = $6',
  visible: '($3::boolean OR m.user_id IS NOT NULL)',
  seq: `(CASE WHEN $3::boolean OR ${inGroup} THEN greatest(y.seq, coalesce(m.seq, 0)) ELSE m.seq END)`,
  order: 'x.seq, x.id',
};
const GROUP_MEMBERS: Kind = {
  key: 'groupMembers',
  columns: 'y.group_id, u.member_id, u.name, y.in_group AS member, y.seq',
  from: 'group_members y JOIN users u ON u.id = y.user_id',
  visible: '$3::boolean',
  seq: 'y.seq',
  order: 'x.seq, x.group_id, x.member_id',
};

// Version 7: every category changed in the range, or all of them when the viewer's own groups
// changed there (a member added to a group then gets the categories it opens): in full to whoever
// may see it, its id alone (`gone`) to anyone else, whose devices drop it.
const seesCategory = `($3::boolean OR y.see_groups IS NULL OR EXISTS (
    SELECT 1 FROM group_members g WHERE g.user_id = $6 AND g.in_group AND g.group_id = ANY(y.see_groups)))`;
const categorySeq = 'greatest(y.seq, coalesce((SELECT max(g.seq) FROM group_members g WHERE g.user_id = $6), 0))';
const CATEGORIES: Kind = {
  key: 'categories',
  columns: `y.id, CASE WHEN ${seesCategory} THEN y.name ELSE '' END AS name,
    CASE WHEN ${seesCategory} THEN y.description ELSE '' END AS description,
    CASE WHEN ${seesCategory} THEN y.position ELSE 0 END AS position,
    CASE WHEN ${seesCategory} THEN y.archived ELSE false END AS archived,
    CASE WHEN ${seesCategory} THEN y.see_groups END AS see_groups,
    CASE WHEN ${seesCategory} THEN y.post_groups END AS post_groups,
    NOT ${seesCategory} AS gone, ${categorySeq} AS seq`,
  from: 'categories y',
  visible: 'true',
  seq: categorySeq,
  order: 'x.seq, x.id',
};

// Version 7 (messages, issue 61): the viewer's own conversations (one row per conversation, their own
// place in it: when they read it, whether they left), numbered by the conversation's change or their
// own, whichever is newer; once they left, by their own only (nothing said in it reaches them, but
// that they left: their devices drop it), with neither when it changed after that nor who is in it
// now. Its messages only to participants who have not left. Admins get no others' (visibility.ts,
// mayReadConversation).
const CONVERSATION_SEQ = '(CASE WHEN m.left_at IS NULL THEN greatest(y.seq, m.seq) ELSE m.seq END)';
const CONVERSATIONS: Kind = {
  key: 'conversations',
  columns: `y.id, y.subject, au.member_id AS author_id, y.created_at,
    CASE WHEN m.left_at IS NULL THEN y.updated_at ELSE least(y.updated_at, m.left_at) END AS updated_at,
    CASE WHEN m.left_at IS NULL THEN (SELECT json_agg(json_build_object('id', pu.member_id, 'name', pu.name, 'left', pm.left_at IS NOT NULL) ORDER BY pm.position)
      FROM conversation_members pm JOIN users pu ON pu.id = pm.user_id WHERE pm.conversation_id = y.id) ELSE '[]'::json END AS participants,
    m.last_read_at, m.left_at IS NOT NULL AS left, ${CONVERSATION_SEQ} AS seq`,
  from: 'conversations y JOIN conversation_members m ON m.conversation_id = y.id JOIN users au ON au.id = y.author_id',
  visible: 'm.user_id = $6',
  seq: CONVERSATION_SEQ,
  order: 'x.seq, x.id',
};
const MESSAGES: Kind = {
  key: 'messages',
  columns: 'y.id, y.conversation_id, au.member_id AS author_id, au.name AS author, y.body, y.created_at, y.attachments, y.seq',
  from: 'messages y JOIN conversation_members m ON m.conversation_id = y.conversation_id JOIN users au ON au.id = y.user_id',
  visible: '(m.user_id = $6 AND m.left_at IS NULL)',
  seq: 'y.seq',
  order: 'x.seq, x.created_at, x.id',
};

// Version 8 (following, issue 62): the viewer's own levels (Normal too: it replaces another level)
// and read positions, by their own change numbers (the (user_id, seq) indexes answer both). Never a
// level on, or a read position in, a post the viewer may not see (any more), nor a level on a category
// they may not see: a post or a category is named by its id, and which posts a member follows or reads
// is theirs and the post's readers' to know only. Seen again (added back to a group), the rows take
// that change (SqlStore.setGroupMember), as the posts do.
const seenPost = (id: string) => `EXISTS (SELECT 1 FROM posts p WHERE p.id = ${id} AND ${postVisibleSql(sqlViewer('$3', '$4'), 'p')})`;
const FOLLOWS: Kind = {
  key: 'follows',
  columns: 'y.kind, y.target, y.level, y.at, y.seq',
  from: 'follows y',
  visible: `y.user_id = $6 AND (y.kind = 'tag'
    OR (y.kind = 'post' AND ${seenPost("CASE WHEN y.kind = 'post' THEN y.target::bigint END")})
    OR (y.kind = 'category' AND ${seenCategory('y.target')}))`,
  seq: 'y.seq',
  order: 'x.seq, x.kind, x.target',
};
const READS: Kind = {
  key: 'reads',
  columns: 'y.post_id, y.read_to, y.seq',
  from: 'post_reads y',
  visible: `y.user_id = $6 AND ${seenPost('y.post_id')}`,
  seq: 'y.seq',
  order: 'x.seq, x.post_id',
};

const kindsOf = (shape: Shape): Kind[] => [
  POSTS,
  ...(shape.replies ? [REPLIES] : []),
  ...(shape.removed ? [REMOVED] : []),
  ...(shape.moderation ? [NOTIFICATIONS, FLAGS] : []),
  ...(shape.comfort ? [SAVED, PREFERENCES] : []),
  ...(shape.members ? [MEMBERS] : []),
  ...(shape.spaces ? [GROUPS, GROUP_MEMBERS, CATEGORIES, CONVERSATIONS, MESSAGES] : []),
  ...(shape.following ? [FOLLOWS, READS] : []),
];

/**
 * One statement for a page (its answer one JSON text: one value to hand over instead of one per
 * column and row; PGlite copies every value out of WebAssembly one by one). Parameters: $1 after,
 * $2 head, $3 admin, $4 email, $5 limit + 1 (and $6 the viewer's id, from version 4). `k_<kind>` holds
 * the first limit + 1 rows of each kind, `s` the first limit + 1 change numbers of all of them
 * merged. The page ends at `bound`:
 * - the head, when at most `limit` rows follow the cursor;
 * - else the change number of the page's last row, when the next row has another one;
 * - else the number before it (the page's last rows share their number with the next one: they
 *   wait for the next page, which starts above the cursor and would otherwise skip the rest);
 * - else, when every row of the page shares that one number, that number: all of its rows come,
 *   even past `limit` (read again from the tables, since `k_<kind>` holds only limit + 1 rows).
 */
const page = (shape: Shape) => {
  const kinds = kindsOf(shape);
  // From version 6, $7: a window's first sync takes a post's own rows only above it (0: all).
  const floor = (kind: Kind) => (shape.members && kind.ofPosts ? 'greatest($1::bigint, $7::bigint)' : '$1');
  const above = (kind: Kind) => (shape.members && kind.ofPosts ? ` AND ${kind.seq} > $7` : '');
  const first = kinds.map(
    (kind) =>
      `k_${kind.key} AS (SELECT ${kind.columns} FROM ${kind.from}
    WHERE ${kind.seq} > ${floor(kind)} AND ${kind.seq} <= $2 AND ${kind.visible} ORDER BY ${kind.seq} LIMIT $5)`,
  );
  // The scalar subqueries on b are evaluated once: a branch whose condition is false reads no table.
  const inPage = kinds.map(
    (kind) => `page_${kind.key} AS (
    SELECT * FROM k_${kind.key} WHERE NOT (SELECT whole FROM b) AND seq <= (SELECT bound FROM b)
    UNION ALL
    SELECT ${kind.columns} FROM ${kind.from}
    WHERE (SELECT whole FROM b) AND ${kind.seq} = (SELECT bound FROM b) AND ${kind.visible}${above(kind)}
  )`,
  );
  const seqs = kinds.map((kind) => `SELECT seq FROM k_${kind.key}`).join(' UNION ALL ');
  const keys = kinds.map((kind) => `'${kind.key}', (SELECT coalesce(json_agg(x ORDER BY ${kind.order}), '[]') FROM page_${kind.key} x),`);
  return `
  WITH ${first.join(',\n  ')},
  s AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM (${seqs}) u),
  edge AS (SELECT (SELECT seq FROM s WHERE n = $5 - 1) AS last, (SELECT seq FROM s WHERE n = $5) AS next),
  b AS (
    SELECT
      CASE WHEN next IS NULL THEN $2
           WHEN next <> last THEN last
           ELSE coalesce((SELECT max(seq) FROM s WHERE seq < last), last) END AS bound,
      next IS NOT NULL AND next = last AND NOT EXISTS (SELECT 1 FROM s WHERE seq < last) AS whole,
      next IS NOT NULL AS cut
    FROM edge
  ),
  ${inPage.join(',\n  ')}
  SELECT json_build_object(
    ${keys.join('\n    ')}
    'bound', b.bound,
    'whole', b.whole,
    'cut', b.cut
  )::text AS page
  FROM b`;
};

// Whether anything this viewer may see follows $1 (asked only after a page of one change number).
// It takes no limit: the viewer's id is $5 here (every placeholder of a statement must be used), and
// from version 6 postsAfter $6.
const moreAfter = (shape: Shape) =>
  `SELECT ${kindsOf(shape)
    .map(
      (kind) =>
        `EXISTS (SELECT 1 FROM ${kind.from.replaceAll('$6', '$5')} WHERE ${kind.seq.replaceAll('$6', '$5')} > ${shape.members && kind.ofPosts ? 'greatest($1::bigint, $6::bigint)' : '$1'} AND ${kind.seq.replaceAll('$6', '$5')} <= $2 AND ${kind.visible.replaceAll('$6', '$5')})`,
    )
    .join(' OR ')} AS more`;

/** The shape of a page for a request of `protocol`. */
const shapeOf = (protocol: number): Shape => ({
  replies: protocol >= 2,
  removed: protocol >= 3,
  moderation: protocol >= 4,
  comfort: protocol >= 5,
  members: protocol >= 6,
  spaces: protocol >= 7,
  following: protocol >= 8,
});

/** The newest shape this server knows. */
const NEWEST = 8;

// The statements of each shape, made once.
const STATEMENTS = new Map(
  Array.from({ length: NEWEST }, (_, index) => index + 1).map((protocol) => {
    const shape = shapeOf(protocol);
    return [protocol, { shape, page: page(shape), more: moreAfter(shape) }] as const;
  }),
);

interface RawPage {
  posts: PostRow[];
  replies?: ReplyRow[];
  removed?: { id: number | string; seq: number | string }[];
  notifications?: Record<string, unknown>[];
  flags?: Record<string, unknown>[];
  saved?: { post_id: number | string; saved: boolean; at: number | string; seq: number | string }[];
  preferences?: {
    theme: string;
    name: string;
    silenced: boolean;
    silence_reason?: string | null;
    silenced_until?: number | string | null;
    auto_watch?: boolean;
    seq: number | string;
  }[];
  members?: { id: string; name: string; role: string; email: string | null; seq: number | string }[];
  groups?: {
    id: string;
    name: string;
    description: string;
    created_at: number | string;
    updated_at: number | string;
    member: boolean;
    gone: boolean;
    seq: number | string;
  }[];
  categories?: {
    id: string;
    name: string;
    description: string;
    position: number | string;
    archived: boolean;
    see_groups: string[] | null;
    post_groups: string[] | null;
    gone: boolean;
    seq: number | string;
  }[];
  groupMembers?: { group_id: string; member_id: string | null; name: string; member: boolean; seq: number | string }[];
  conversations?: Record<string, unknown>[];
  messages?: Record<string, unknown>[];
  follows?: { kind: string; target: string; level: string; at: number | string; seq: number | string }[];
  reads?: { post_id: number | string; read_to: number | string; seq: number | string }[];
  bound: number | string;
  whole: boolean;
  cut: boolean;
}

/** A post as a device of `protocol` reads it: before version 4 without `reason` (as those versions sent it). */
function postFor(protocol: number, post: WirePost): WirePost {
  if (protocol >= 4) return post;
  const { reason: _reason, ...older } = post;
  return older as WirePost;
}

/** A saved_posts row as the wire sends it to its member. */
const toWireSaved = (row: NonNullable<RawPage['saved']>[number]): WireSaved => ({
  postId: Number(row.post_id),
  saved: row.saved === true,
  at: Number(row.at),
  seq: Number(row.seq),
});

/** The member's preferences row as the wire sends it (a theme the CHECK allows, else the default). */
const toWirePreferences = (row: NonNullable<RawPage['preferences']>[number]): WirePreferences => ({
  theme: isTheme(row.theme) ? row.theme : 'system',
  name: String(row.name),
  silenced: row.silenced === true,
  silenceReason: row.silenced === true ? (row.silence_reason ?? null) : null,
  silencedUntil:
    row.silenced === true && row.silenced_until !== null && row.silenced_until !== undefined ? Number(row.silenced_until) : null,
  autoWatch: row.auto_watch !== false,
  seq: Number(row.seq),
});

/** Preferences as a device of `protocol` reads them: before version 8 without `autoWatch`. */
function preferencesFor(protocol: number, preferences: WirePreferences | undefined): WirePreferences | null {
  if (!preferences) return null;
  if (protocol >= 8) return preferences;
  const { autoWatch: _autoWatch, ...older } = preferences;
  return older as WirePreferences;
}

/** A follows row as the wire sends it to its member (the CHECKs keep kind and level to the wire's). */
const toWireFollow = (row: NonNullable<RawPage['follows']>[number]): WireFollow => ({
  kind: row.kind as WireFollow['kind'],
  target: String(row.target),
  level: row.level as WireFollow['level'],
  at: Number(row.at),
  seq: Number(row.seq),
});

/** A post_reads row as the wire sends it to its member. */
const toWireRead = (row: NonNullable<RawPage['reads']>[number]): WireRead => ({
  postId: Number(row.post_id),
  readTo: Number(row.read_to),
  seq: Number(row.seq),
});

/** A users row as a pull names the member (email only when the query gave it: to admins). */
const toWireMember = (row: NonNullable<RawPage['members']>[number]): WireMember => ({
  id: String(row.id),
  name: String(row.name),
  role: row.role === 'admin' ? 'admin' : 'user',
  ...(row.email ? { email: String(row.email) } : {}),
  seq: Number(row.seq),
});

/** A groups row as a pull sends it (blank to a member taken out: `gone`). */
const toWireGroup = (row: NonNullable<RawPage['groups']>[number]): WireGroup => ({
  id: String(row.id),
  name: String(row.name),
  description: String(row.description),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  member: row.member === true,
  gone: row.gone === true,
  seq: Number(row.seq),
});

/** A categories row as a pull sends it (its id alone, `gone`, to a viewer who may not see it). */
const toWireCategory = (row: NonNullable<RawPage['categories']>[number]): WireCategory => ({
  id: String(row.id),
  name: String(row.name),
  description: String(row.description),
  position: Number(row.position),
  archived: row.archived === true,
  see: Array.isArray(row.see_groups) ? row.see_groups.map(String) : null,
  post: Array.isArray(row.post_groups) ? row.post_groups.map(String) : null,
  gone: row.gone === true,
  seq: Number(row.seq),
});

/** A group_members row as a pull sends it to admins. */
const toWireGroupMember = (row: NonNullable<RawPage['groupMembers']>[number]): WireGroupMember => ({
  groupId: String(row.group_id),
  memberId: String(row.member_id ?? ''),
  name: String(row.name),
  member: row.member === true,
  seq: Number(row.seq),
});

/**
 * A post saved in this page (saved true) that the page does not carry comes with it, and its
 * replies: a device that freed space since may not hold it, and a saved post is kept for reading
 * offline (issue 23). Only an approved post the viewer may see, and only rows at or below `after`
 * (what is above comes in this page or a later one anyway); rows as a pull sends them (their own
 * change numbers, which a device that holds them already simply finds not newer).
 */
async function addSavedPosts(
  sql: Sql,
  viewer: UserRow,
  after: number,
  saved: WireSaved[],
  posts: WirePost[],
  replies: WireReply[],
): Promise<void> {
  const carried = new Set(posts.map((post) => post.id));
  const missing = [...new Set(saved.filter((row) => row.saved && !carried.has(row.postId)).map((row) => row.postId))];
  if (missing.length === 0) return;
  const admin = viewer.role === 'admin';
  const rows = await sql.query<PostRow>(
    `SELECT ${readablePostColumns('y', '$2', '$3')} FROM posts y
     WHERE y.id = ANY($1::bigint[]) AND y.seq <= $4 AND ${publicPostSql('y')} AND ${postVisibleSql(sqlViewer('$2', '$3'), 'y')} ORDER BY y.seq`,
    [missing, admin, viewer.email, after],
  );
  if (rows.length === 0) return;
  await withPolls(sql, rows, viewer.email);
  posts.push(...(await withAuthors(sql, rows)).map((row) => toWirePost(row, admin, viewer.email)));
  const threads = await sql.query<ReplyRow>(
    `SELECT ${readableReplyColumns('x', '$2')} FROM replies x WHERE x.post_id = ANY($1::bigint[]) AND x.seq <= $3 ORDER BY x.seq, x.created_at`,
    [rows.map((row) => Number(row.id)), admin, after],
  );
  const present = new Set(replies.map((reply) => reply.id));
  const notCarried = threads.filter((reply) => !present.has(String(reply.id)));
  replies.push(...(await withAuthors(sql, notCarried)).map((reply) => toWireReply(reply, admin, viewer.email)));
}

/**
 * One page of changes after `after` that `viewer` may see, oldest first: at most `limit` rows in all
 * (posts, replies, removed posts, notifications, flags, saved posts and preferences counted together), except when more rows
 * than that share one change number. A `protocol` 1 request gets posts only, counted alone; a
 * `protocol` 2 request posts and replies, and no `removed` key (a deleted post is simply absent: an
 * older device keeps its copy until it updates); a `protocol` 3 request no `notifications` nor
 * `flags`, and posts without `reason`; a `protocol` 4 request no `saved` nor `preferences`.
 */
export async function pullChanges(
  sql: Sql,
  viewer: UserRow,
  after: number,
  limit: number,
  protocol: number,
  postsAfter = 0,
): Promise<PullResponse | SpacesPage | MembersPage | ComfortPage | ModerationPage | WritingPage | ConversationsPage | PostsPage> {
  const version = Math.min(Math.max(protocol, 1), NEWEST);
  const { shape, page: pageSql, more: moreSql } = STATEMENTS.get(version)!;
  const admin = viewer.role === 'admin';
  const head = await changeHead(sql);
  const viewerId = shape.moderation || shape.comfort ? [viewer.id] : [];
  const window = shape.members ? [postsAfter] : [];
  const [row] = await sql.query<{ page: string }>(pageSql, [after, head, admin, viewer.email, limit + 1, ...viewerId, ...window]);
  const raw = JSON.parse(row!.page) as RawPage;
  const bound = Number(raw.bound);
  let more = raw.cut;
  if (raw.whole) {
    const [following] = await sql.query<{ more: boolean }>(moreSql, [bound, head, admin, viewer.email, ...viewerId, ...window]);
    more = following!.more;
  }
  await withAuthors(sql, [...raw.posts, ...(raw.replies ?? [])]);
  await withPolls(sql, raw.posts, viewer.email);
  const posts: WirePost[] = raw.posts.map((post) => postFor(version, toWirePost(post, admin, viewer.email)));
  const cursor = more ? bound : head;
  if (!shape.replies) return { posts, cursor, more };
  const replies: WireReply[] = (raw.replies ?? []).map((reply) => toWireReply(reply, admin, viewer.email));
  if (!shape.removed) return { posts, replies, cursor, more };
  const removed = (raw.removed ?? []).map((gone) => ({ id: Number(gone.id), seq: Number(gone.seq) }));
  if (!shape.moderation) return { posts, replies, removed, cursor, more };
  // A device older than protocol 8 does not know the `watching` kind (issue 62): it never gets one.
  const notifications = (raw.notifications ?? [])
    .map(toWireNotification)
    .filter((notification) => protocol >= WATCHING_PROTOCOL || notification.kind !== 'watching');
  const flags = (raw.flags ?? []).map(toWireFlag);
  if (!shape.comfort) return { posts, replies, removed, notifications, flags, cursor, more };
  const saved = (raw.saved ?? []).map(toWireSaved);
  await addSavedPosts(sql, viewer, after, saved, posts, replies);
  const preferences = preferencesFor(version, (raw.preferences ?? []).map(toWirePreferences)[0]);
  if (!shape.members) return { posts, replies, removed, notifications, flags, saved, preferences, cursor, more };
  const members = (raw.members ?? []).map(toWireMember);
  if (!shape.spaces) return { posts, replies, removed, notifications, flags, saved, preferences, members, cursor, more };
  const groups = (raw.groups ?? []).map(toWireGroup);
  const groupMembers = (raw.groupMembers ?? []).map(toWireGroupMember);
  const categories = (raw.categories ?? []).map(toWireCategory);
  const conversations = (raw.conversations ?? []).map(toWireConversation);
  const messages = (raw.messages ?? []).map(toWireMessage);
  const spaces = {
    posts,
    replies,
    removed,
    notifications,
    flags,
    saved,
    preferences,
    members,
    groups,
    groupMembers,
    categories,
    conversations,
    messages,
  };
  if (!shape.following) return { ...spaces, cursor, more };
  return { ...spaces, follows: (raw.follows ?? []).map(toWireFollow), reads: (raw.reads ?? []).map(toWireRead), cursor, more };
}
