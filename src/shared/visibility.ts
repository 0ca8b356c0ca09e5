// Who sees what: the one rule, for a viewer, of which posts, replies, files, polls, notifications and
// member facts they may see. Each rule is written here twice, side by side: as a TypeScript predicate
// (the device, the operations, the emails) and as the SQL condition the server's readers put in their
// queries (pulls, pages, search, mention search, member pages, downloads, emails, notifications).
// tests/server/shared/visibility.test.ts runs every combination on PGlite and PostgreSQL and holds each SQL
// answer to its predicate, so a new rule (groups, private categories) is written here, in both forms,
// and nowhere else.
//
// Today's rules:
// - a post: approved to everyone; its author's own in every status; others' pending and rejected to admins;
//   and a post in a private category (see_groups not NULL) only to admins and to members in one of its
//   groups (in_group), its author too only while in one; never to nobody signed in, nor in what everyone sees;
// - its poll and its likes go with it (a like only on an approved post the viewer may see);
// - a reply: its row (its state) to whoever may see its post; its text and files while visible, a hidden
//   one's to admins only, a deleted one's to nobody;
// - the text an edit replaced (`previous`): admins only; a rejection's or hide's reason: its author and admins;
//   an author's email: the author and admins;
// - a file: its uploaders, admins, and whoever may see a post or read a reply that carries it; a message's
//   file also its conversation's participants, and one only messages carry admins only through an open flag;
// - a notification: its recipient only, while they may still see its post (and read its reply);
// - member facts (member pages, mention search, the digest): public ones only, what a viewer who is
//   neither the author nor an admin sees: approved posts, visible replies on them, likes on them.
import type { PostStatus, ReplyState } from './post-rules';

/**
 * Who looks: a signed-in member or admin (their email, role and the ids of the groups they are in),
 * or null when nobody is signed in. No `groups`: in none (they see the categories everyone sees).
 */
export type Viewer = { email: string; role: string; groups?: readonly string[] } | null;

/** A viewer as SQL expressions: placeholders (such as '$3') or columns, never a value written into the text. */
export interface SqlViewer {
  /** A boolean expression: the viewer is an admin. */
  admin: string;
  /** A text expression: the viewer's email. */
  email: string;
}

/** The viewer whose admin flag and email are in placeholders (or columns) `admin` and `email`. */
export const sqlViewer = (admin: string, email: string): SqlViewer => ({ admin, email });

/** The values of a SqlViewer's two placeholders for `viewer`: [admin, email] (nobody signed in: not an admin, no email; no account has the email ''). */
export const viewerParams = (viewer: Viewer): [boolean, string] => [isAdmin(viewer), viewer?.email ?? ''];

const column = (alias: string | undefined, name: string) => (alias ? `${alias}.${name}` : name);

export const isAdmin = (viewer: Viewer): boolean => viewer?.role === 'admin';

const isAuthor = (authorEmail: string, viewer: Viewer): boolean => viewer !== null && authorEmail === viewer.email;

// ---- Posts (and their polls) ----

export interface SeenPost {
  status: PostStatus | string;
  authorEmail: string;
  /** Its category's see list (categories.see_groups): the groups whose members see it; null or absent: everyone. */
  seeGroups?: readonly string[] | null;
}

/** Whether the viewer may see the posts of a category seen by `seeGroups` (null or absent: everyone; else admins and its groups' members). */
export const maySeeCategory = (seeGroups: readonly string[] | null | undefined, viewer: Viewer): boolean =>
  seeGroups === null ||
  seeGroups === undefined ||
  isAdmin(viewer) ||
  (viewer !== null && (viewer.groups ?? []).some((group) => seeGroups.includes(group)));

/**
 * Who may see a post (and its poll): approved posts everyone, their own in every status, others'
 * pending and rejected posts admins; in a private category, only admins and its groups' members.
 */
export const maySeePost = (post: SeenPost, viewer: Viewer): boolean =>
  maySeeCategory(post.seeGroups, viewer) && (post.status === 'approved' || isAuthor(post.authorEmail, viewer) || isAdmin(viewer));

/**
 * maySeeCategory in SQL, for the posts table (named `alias`): its category is one everyone sees (or
 * has no row), or the viewer (by email) is in one of its groups. One primary-key lookup of the
 * category, then group_members (user_id, in_group) for a private one only.
 */
export const categorySeenSql = (viewer: SqlViewer, alias?: string): string =>
  `NOT EXISTS (SELECT 1 FROM categories vc WHERE vc.id = ${column(alias, 'category')} AND vc.see_groups IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM users vu JOIN group_members vg ON vg.user_id = vu.id
      WHERE vu.email = ${viewer.email} AND vg.in_group AND vg.group_id = ANY(vc.see_groups)))`;

/** maySeePost in SQL, over the posts table (named `alias` when the query names it). */
export const postVisibleSql = (viewer: SqlViewer, alias?: string): string =>
  `(${viewer.admin}::boolean OR ((${column(alias, 'status')} = 'approved' OR ${column(alias, 'author_email')} = ${viewer.email}) AND ${categorySeenSql(viewer, alias)}))`;

/** What everyone sees of posts (the feed, search, member pages, the digest): maySeePost for nobody signed in. */
export const isPublicPost = (post: SeenPost): boolean => maySeePost(post, null);

/** isPublicPost in SQL: approved (a condition the partial indexes on approved posts answer), in a category everyone sees. */
export const publicPostSql = (alias?: string): string =>
  `${column(alias, 'status')} = 'approved' AND NOT EXISTS (SELECT 1 FROM categories vc WHERE vc.id = ${column(alias, 'category')} AND vc.see_groups IS NOT NULL)`;

/** The approved posts a viewer may see (the forum's pages and search for a member): isPublicPost, or approved in a private category they see. */
export const isListedPost = (post: SeenPost, viewer: Viewer): boolean => post.status === 'approved' && maySeePost(post, viewer);

/** isListedPost in SQL, over the posts table (named `alias`). */
export const listedPostSql = (viewer: SqlViewer, alias?: string): string =>
  `${column(alias, 'status')} = 'approved' AND (${viewer.admin}::boolean OR ${categorySeenSql(viewer, alias)})`;

/** The text an edit replaced (a post's `previous`): admins only. */
export const mayReadPrevious = (viewer: Viewer): boolean => isAdmin(viewer);

/** mayReadPrevious in SQL. */
export const previousReadableSql = (viewer: SqlViewer): string => `${viewer.admin}::boolean`;

/** A rejection's or hide's reason: the post's author and admins. */
export const mayReadReason = (post: Pick<SeenPost, 'authorEmail'>, viewer: Viewer): boolean =>
  isAdmin(viewer) || isAuthor(post.authorEmail, viewer);

/** mayReadReason in SQL, over the posts table named `alias`. */
export const reasonReadableSql = (viewer: SqlViewer, alias: string): string =>
  `(${viewer.admin}::boolean OR ${alias}.author_email = ${viewer.email})`;

/** The email of what `authorEmail` wrote: its author and admins (everyone else reads it blank). */
export const mayReadEmail = (authorEmail: unknown, viewer: Viewer): boolean =>
  viewer !== null && (isAdmin(viewer) || viewer.email === authorEmail);

/**
 * A like, on the post `post` (undefined: none with that id): `ok` on an approved post the viewer may
 * see, `not_approved` on one they may see that is not approved, else `not_found`. The server's like
 * batch (ie_like_batch, PL/pgSQL) answers the same (tests/server/shared/visibility.test.ts).
 */
export function likeOutcome(post: SeenPost | undefined, viewer: Viewer): 'ok' | 'not_approved' | 'not_found' {
  if (!post || !maySeePost(post, viewer)) return 'not_found';
  return post.status === 'approved' ? 'ok' : 'not_approved';
}

// ---- Replies ----

export interface SeenReply {
  state: ReplyState | string;
}

/** A reply hidden from this viewer: hidden by a moderator, and the viewer no admin (they see "hidden" in its place). */
export const hiddenFrom = (reply: SeenReply, viewer: Viewer): boolean => reply.state === 'hidden' && !isAdmin(viewer);

/**
 * Who may read a reply's text and files, on a post they may see (the reply's row and state go to
 * whoever may see its post): a visible one everyone, a hidden one admins, a deleted one nobody.
 */
export const mayReadReply = (reply: SeenReply, viewer: Viewer): boolean => reply.state !== 'deleted' && !hiddenFrom(reply, viewer);

/** mayReadReply in SQL, over the replies table named `alias`. */
export const replyReadableSql = (viewer: SqlViewer, alias: string): string =>
  `(${alias}.state = 'visible' OR (${alias}.state = 'hidden' AND ${viewer.admin}::boolean))`;

/** What everyone reads of replies (member pages, mention search): a reply everyone may read on a public post. */
export const isPublicReply = (reply: SeenReply, post: SeenPost): boolean => isPublicPost(post) && mayReadReply(reply, null);

/** isPublicReply in SQL, over replies `replies` joined to their posts `posts`. */
export const publicReplySql = (replies: string, posts: string): string => `${replies}.state = 'visible' AND ${publicPostSql(posts)}`;

// ---- Files ----

/** Where a file is: whether this viewer uploaded it, and the posts and replies (with their posts) that carry it. */
export interface SeenFile {
  uploadedByViewer: boolean;
  posts: SeenPost[];
  replies: { reply: SeenReply; post: SeenPost }[];
}

/** Whether a post the viewer may see, or a reply they may read (on a post they may see), carries the file. */
export const isCarriedWhereSeen = (file: SeenFile, viewer: Viewer): boolean =>
  file.posts.some((post) => maySeePost(post, viewer)) ||
  file.replies.some(({ reply, post }) => maySeePost(post, viewer) && mayReadReply(reply, viewer));

/**
 * Who may download a file posts and replies carry (or nothing does): its uploaders, admins, and
 * whoever may see a post or read a reply that carries it (mayDownloadFile, with no message carrying it).
 */
export const maySeeFile = (file: SeenFile, viewer: Viewer): boolean =>
  mayDownloadFile(
    {
      uploadedByViewer: file.uploadedByViewer,
      carriedWhereSeen: isCarriedWhereSeen(file, viewer),
      inViewersConversation: false,
      onlyInMessages: false,
      inFlaggedConversation: false,
    },
    viewer,
  );

/** What a query says of a file and its viewer for a download, messages included (visibleFileNameSql, messageFileSql). */
export interface DownloadedFile {
  uploadedByViewer: boolean;
  /** A post the viewer may see, or a reply they may read, carries it. */
  carriedWhereSeen: boolean;
  /** A message of a conversation the viewer takes part in (and has not left) carries it. */
  inViewersConversation: boolean;
  /** Messages carry it, and no post or reply does. */
  onlyInMessages: boolean;
  /** A message of a conversation with an open flag, written up to the flag, carries it (what an admin reads through the flag). */
  inFlaggedConversation: boolean;
}

/**
 * Who may download a file, messages included (issue 61): its uploaders, whoever may see a post or
 * read a reply that carries it, a conversation's participants its messages' files; admins every file
 * but one only messages carry, which they read only through a flag of its conversation, as its messages.
 */
export const mayDownloadFile = (file: DownloadedFile, viewer: Viewer): boolean =>
  file.uploadedByViewer ||
  file.carriedWhereSeen ||
  file.inViewersConversation ||
  (isAdmin(viewer) && (!file.onlyInMessages || file.inFlaggedConversation));

const carries = (alias: string, sha256: string) => `${alias}.attachments @> jsonb_build_array(jsonb_build_object('sha256', ${sha256}))`;

/**
 * For the download of the file whose address is in `sha256` (SQL text expression) by `viewer`: the
 * name a message of a conversation they take part in gives it (NULL: none), and the three other
 * facts mayDownloadFile reads: only_in_messages, in_flagged_conversation (SELECT-list columns).
 */
export const messageFileSql = (viewer: SqlViewer, sha256: string): string => `
    (SELECT f->>'name' FROM messages y CROSS JOIN LATERAL jsonb_array_elements(y.attachments) f
     WHERE ${carries('y', sha256)} AND f->>'sha256' = ${sha256}
       AND ${participantSql(viewer, 'y.conversation_id')} LIMIT 1) AS conversation_name,
    (EXISTS (SELECT 1 FROM messages y WHERE ${carries('y', sha256)})
      AND NOT EXISTS (SELECT 1 FROM posts p WHERE ${carries('p', sha256)})
      AND NOT EXISTS (SELECT 1 FROM replies r WHERE ${carries('r', sha256)})) AS only_in_messages,
    EXISTS (SELECT 1 FROM message_flags fl JOIN messages y ON y.conversation_id = fl.conversation_id
      WHERE fl.state = 'open' AND ${FLAG_CUT_OFF('y', 'fl.upto_seq', 'fl.created_at')} AND ${carries('y', sha256)}) AS in_flagged_conversation`;

/**
 * Whether message `y` (SQL alias) is within what a flag shows the admins: up to its conversation's
 * last message when it was flagged (`uptoSeq`, a change number), or, for a flag older than that
 * column (NULL), up to the flag's time (`flaggedAt`). SQL expressions, all three.
 */
export const FLAG_CUT_OFF = (y: string, uptoSeq: string, flaggedAt: string): string =>
  `(CASE WHEN ${uptoSeq} IS NULL THEN ${y}.created_at <= ${flaggedAt} ELSE ${y}.seq <= ${uptoSeq} END)`;

/**
 * The name a post or reply the viewer may see gives the file whose address is in `sha256` (SQL text
 * expression), or NULL when none they may see carries it (isCarriedWhereSeen). With the viewer's own upload and the admin
 * rule (maySeeFile), it decides a download.
 */
export const visibleFileNameSql = (viewer: SqlViewer, sha256: string): string => `coalesce(
    (SELECT f->>'name' FROM posts p CROSS JOIN LATERAL jsonb_array_elements(p.attachments) f
     WHERE ${carries('p', sha256)} AND f->>'sha256' = ${sha256}
       AND ${postVisibleSql(viewer, 'p')} LIMIT 1),
    (SELECT f->>'name' FROM replies r JOIN posts p ON p.id = r.post_id CROSS JOIN LATERAL jsonb_array_elements(r.attachments) f
     WHERE ${carries('r', sha256)} AND f->>'sha256' = ${sha256}
       AND ${replyReadableSql(viewer, 'r')} AND ${postVisibleSql(viewer, 'p')} LIMIT 1))`;

// ---- Notifications ----

/** A notification, as far as its reader is concerned: its kind and whether it names a reply. */
export interface SeenNotification {
  kind: string;
  replyId: string | null;
}

/**
 * Whether a notification's recipient (`viewer`; nobody else ever sees it) may still see what it
 * names: its post (undefined once deleted) and its reply, if any, readable. A "your reply was
 * hidden" notice names a reply hidden on purpose: its post is what is checked.
 */
export const maySeeNotification = (
  note: SeenNotification,
  subject: { post: SeenPost | undefined; reply: SeenReply | undefined },
  viewer: Viewer,
): boolean =>
  subject.post !== undefined &&
  maySeePost(subject.post, viewer) &&
  (note.replyId === null || note.kind === 'replyHidden' || (subject.reply !== undefined && mayReadReply(subject.reply, viewer)));

/** A notification reaches its recipient only: in SQL, notifications `alias` of the user whose id is in `userId`. */
export const notificationRecipientSql = (alias: string, userId: string): string => `${alias}.user_id = ${userId}`;

/**
 * Whether the member whose account id is in `userId` (an admin when `admin`; SQL expressions) may see
 * the category of post `postId`: a notification about a post in a private category is made only for
 * its groups' members and admins, and a pull carries one only while its recipient may still see it.
 */
export const recipientCategorySeenSql = (admin: string, userId: string, postId: string): string =>
  `(${admin}::boolean OR NOT EXISTS (SELECT 1 FROM posts np JOIN categories nc ON nc.id = np.category
    WHERE np.id = ${postId} AND nc.see_groups IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM group_members ng WHERE ng.user_id = ${userId} AND ng.in_group AND ng.group_id = ANY(nc.see_groups))))`;

/** recipientCategorySeenSql for the member of users row `user`. */
export const recipientSeesCategorySql = (user: string, postId: string): string =>
  recipientCategorySeenSql(`(${user}.role = 'admin')`, `${user}.id`, postId);

/** maySeeNotification in SQL, for notifications `alias` and their recipient (users), whatever the query's viewer. */
export const notificationSeenSql = (alias: string): string => {
  const recipient = sqlViewer(`(me.role = 'admin')`, 'me.email');
  return `EXISTS (SELECT 1 FROM users me JOIN posts p ON p.id = ${alias}.post_id
  WHERE me.id = ${alias}.user_id AND ${postVisibleSql(recipient, 'p')}
    AND (${alias}.reply_id IS NULL OR ${alias}.kind = 'replyHidden'
      OR EXISTS (SELECT 1 FROM replies r WHERE r.id = ${alias}.reply_id AND r.post_id = p.id AND ${replyReadableSql(recipient, 'r')})))`;
};

// ---- Messages (issue 61) ----

/** A viewer's own place in a conversation, as the store keeps it (undefined: not a participant). */
export interface Participation {
  left: boolean;
}

/**
 * Who may read a conversation and its messages: its participants who have not left it, and nobody
 * else, admins included (an admin reads one only through a flag's review, written to the staff log).
 */
export const mayReadConversation = (participation: Participation | undefined, viewer: Viewer): boolean =>
  viewer !== null && participation !== undefined && !participation.left;

/** The viewer (by email) takes part in the conversation whose id is in `conversationId` (SQL) and has not left it. */
function participantSql(viewer: SqlViewer, conversationId: string): string {
  return `EXISTS (SELECT 1 FROM conversation_members cm JOIN users cu ON cu.id = cm.user_id
    WHERE cm.conversation_id = ${conversationId} AND cu.email = ${viewer.email} AND cm.left_at IS NULL)`;
}

/**
 * mayReadConversation in SQL, over the conversations table (named `alias`): the viewer (by email) is
 * one of its participants and has not left it.
 */
export const conversationReadableSql = (viewer: SqlViewer, alias?: string): string => participantSql(viewer, column(alias, 'id'));
