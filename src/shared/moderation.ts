// Moderation and notifications: the shapes and rules that the device (both modes), the server and
// the tests share. Reasons for a rejection, flags on posts and replies, and the notifications a
// member gets when something happens to what they wrote. Each rule exists once: the server calls
// it inside the transaction that applies an operation; a local-only device calls it inside the
// Dexie transaction that applies the same operation there.

import type { Actor, Post, Reply } from './post-rules';

/** Longest text a rejection reason, a hide reason or a flag's own words may have. */
export const MODERATION_LIMITS = { reason: 500, flagText: 500 } as const;

/** What a post carries of its moderation (device rows and the wire; not the `posts` mirror). */
export interface PostReview {
  /**
   * Why an admin rejected (or hid) it: the author and admins read it; null when none was given,
   * and once the post is pending or approved again.
   */
  reason?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Flags

export const FLAG_REASONS = ['spam', 'off-topic', 'inappropriate', 'other'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** The words a member reads for each reason (the Flag dialog's radio labels, the Flags queue). */
export const FLAG_REASON_LABELS: Record<FlagReason, string> = {
  spam: 'Spam',
  'off-topic': 'Off-topic',
  inappropriate: 'Inappropriate',
  other: 'Other',
};

/**
 * A flag's life: `open` until an admin acts; `dismissed` when an admin dismissed the item's flags;
 * `resolved` when the item was hidden or deleted (by anyone: the flags are settled).
 */
export const FLAG_STATES = ['open', 'dismissed', 'resolved'] as const;
export type FlagState = (typeof FLAG_STATES)[number];

/** What is flagged: a post (`replyId` null) or one of its replies. */
export interface FlagTarget {
  postId: number;
  replyId: string | null;
}

/**
 * One member's flag on a post or reply. Its id is the id of the operation that made it. A member
 * sees only their own flags; admins see every flag (with the flagger's name).
 */
export interface Flag extends FlagTarget {
  id: string;
  reason: FlagReason;
  /** The member's own words (required for `other`, optional otherwise; '' when none). */
  text: string;
  /** The flagger's display name (admins; a member's own flag carries their own name). */
  flagger: string;
  flaggerEmail: string;
  /** Milliseconds since the epoch (the server's clock once synced). */
  createdAt: number;
  state: FlagState;
}

/** A member flags what others wrote, never their own post or reply. */
export const mayFlag = (item: Pick<Post | Reply, 'authorEmail'>, actor: Actor): boolean => item.authorEmail !== actor.email;

/**
 * Why `actor` may not flag a post (`reply` null) or one reply of it, or null when they may: only an
 * approved post (`not_found`), only a visible reply of it (`reply_not_found`; undefined: no such
 * reply), never their own (`cannot_flag_own`). The `flag` operation refuses with it, and the post
 * page offers Flag only where it is null.
 */
export function flagRefusal(
  post: Pick<Post, 'id' | 'status' | 'authorEmail'> | undefined,
  reply: Pick<Reply, 'postId' | 'state' | 'authorEmail'> | null | undefined,
  actor: Actor,
): 'not_found' | 'reply_not_found' | 'cannot_flag_own' | null {
  if (!post || post.status !== 'approved') return 'not_found';
  if (reply === undefined || (reply !== null && (reply.postId !== post.id || reply.state !== 'visible'))) return 'reply_not_found';
  return mayFlag(reply ?? post, actor) ? null : 'cannot_flag_own';
}

/** Same target (a post, or one reply of it)? */
export const sameTarget = (a: FlagTarget, b: FlagTarget): boolean => a.postId === b.postId && (a.replyId ?? null) === (b.replyId ?? null);

/** The key of a target in maps and sets: "post:<id>" or "reply:<id>". */
export const targetKey = (target: FlagTarget): string => (target.replyId ? `reply:${target.replyId}` : `post:${target.postId}`);

// ---------------------------------------------------------------------------------------------
// Notifications

/**
 * What a notification says happened: the member's post was approved, rejected (with the reason)
 * or hidden from the forum after flags (with the reason); someone replied to their post; someone
 * quoted their reply; a moderator hid their reply; someone mentioned them; (protocol 8, issue 62)
 * someone replied in a post they watch, or posted in a category or tag they watch (`watching`).
 */
export const NOTIFICATION_KINDS = [
  'approved',
  'rejected',
  'postHidden',
  'replied',
  'quoted',
  'replyHidden',
  'mentioned',
  'watching',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A notification of one member (the recipient is implied: a device and a pull only hold their own). */
export interface Notification {
  /** A UUID (the server's, or the local-only device's). */
  id: string;
  kind: NotificationKind;
  postId: number;
  /** The reply it is about (replied: the new reply; quoted: the reply that quotes; replyHidden: the hidden reply), else null. */
  replyId: string | null;
  /** Who did it: the replier's name for replied/quoted; null for a moderator's act (admins stay unnamed). */
  actor: string | null;
  /** The post's title as it is now (an edit that retitles the post rewrites it; no earlier title stays). */
  postTitle: string;
  /** The reason given with a rejection or a hide, else null. */
  reason: string | null;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** When the member read it (ms since the epoch), or null while unread. */
  readAt: number | null;
  /**
   * How many new replies a `watching` notification stands for (absent: one). A further reply in a
   * watched post updates the member's unread notification of it (collapses) rather than adding one.
   */
  count?: number;
}

/** A notification to write: everything but its id, time and read state, plus whom it goes to. */
export type NewNotification = Omit<Notification, 'id' | 'createdAt' | 'readAt'> & {
  recipientEmail: string;
  /** Who `actor` names when it is not the member acting (a mention told at its post's approval: the post's author). */
  actorEmail?: string;
};

/** At most this many notification ids in one `readNotifications` operation (a device sends several for more). */
export const MAX_READ_IDS = 500;

/** The one line a notification reads as, in the list and as a system notification's title. */
export function notificationTitle(notification: Pick<Notification, 'kind' | 'actor' | 'postTitle' | 'replyId' | 'count'>): string {
  const post = `“${notification.postTitle}”`;
  switch (notification.kind) {
    case 'approved':
      return `Your post ${post} was approved`;
    case 'rejected':
      return `Your post ${post} was rejected`;
    case 'postHidden':
      return `Your post ${post} was hidden by a moderator`;
    case 'replied':
      return `${notification.actor ?? 'Someone'} replied to your post ${post}`;
    case 'quoted':
      return `${notification.actor ?? 'Someone'} quoted your reply on ${post}`;
    case 'replyHidden':
      return `A moderator hid your reply on ${post}`;
    case 'mentioned':
      return `${notification.actor ?? 'Someone'} mentioned you in ${post}`;
    case 'watching':
      if (notification.replyId === null) return `${notification.actor ?? 'Someone'} posted ${post}`;
      if ((notification.count ?? 1) > 1) return `${notification.count!.toLocaleString('en-US')} new replies in ${post}`;
      return `${notification.actor ?? 'Someone'} replied in ${post}`;
  }
}

/** The first protocol version whose devices know the `watching` kind: a pull of an older one leaves those out. */
export const WATCHING_PROTOCOL = 8;

/**
 * Whether a notification collapses into the recipient's unread one of the same post (issue 62): a
 * `watching` notification of a reply does, so a busy watched post reads as one line ("3 new replies
 * in …") in the list and the emails, not one per reply. The store that writes notifications (the
 * server's, a local-only device's) updates that one instead: newest reply, actor and time, count + 1.
 */
export const collapses = (notification: Pick<NewNotification, 'kind' | 'replyId'>): boolean =>
  notification.kind === 'watching' && notification.replyId !== null;

/** The line under the title: the reason when there is one, else nothing. */
export function notificationDetail(notification: Pick<Notification, 'reason'>): string {
  return notification.reason ? `Reason: ${notification.reason}` : '';
}

/** Where a notification leads: the post's page, at the reply when it is about one. */
export function notificationPath(notification: Pick<Notification, 'postId' | 'replyId' | 'kind'>): string {
  const anchor = notification.replyId && notification.kind !== 'replyHidden' ? `#reply-${notification.replyId}` : '';
  return `/posts/${notification.postId}${anchor}`;
}

/** Never tell someone about what they did themselves. */
const toOthers = (list: NewNotification[], actor: Actor): NewNotification[] => list.filter((n) => n.recipientEmail !== actor.email);

/** A review (approve, reject) or a hide of a post: its author hears of it. */
export function notificationsForReview(
  post: Pick<Post, 'id' | 'title' | 'authorEmail'>,
  outcome: 'approved' | 'rejected' | 'postHidden',
  reason: string | null,
  actor: Actor,
): NewNotification[] {
  return toOthers(
    [
      {
        recipientEmail: post.authorEmail,
        kind: outcome,
        postId: post.id,
        replyId: null,
        actor: null,
        postTitle: post.title,
        reason: outcome === 'approved' ? null : reason,
      },
    ],
    actor,
  );
}

/**
 * A new reply: the post's author hears "replied"; the author of the quoted reply hears "quoted"
 * (one notification each; the post's author who is also the quoted one hears "quoted" only).
 */
export function notificationsForReply(
  post: Pick<Post, 'id' | 'title' | 'authorEmail'>,
  reply: Pick<Reply, 'id' | 'author' | 'authorEmail'>,
  quoted: Pick<Reply, 'authorEmail' | 'state'> | null,
  actor: Actor,
): NewNotification[] {
  const base = { postId: post.id, replyId: reply.id, actor: reply.author, postTitle: post.title, reason: null };
  const quotedAuthor = quoted && quoted.state === 'visible' ? quoted.authorEmail : null;
  const list: NewNotification[] = [];
  if (quotedAuthor) list.push({ ...base, recipientEmail: quotedAuthor, kind: 'quoted' });
  if (post.authorEmail !== quotedAuthor) list.push({ ...base, recipientEmail: post.authorEmail, kind: 'replied' });
  return toOthers(list, actor);
}

/** A moderator hid a reply: its author hears of it. */
export function notificationsForHiddenReply(
  post: Pick<Post, 'id' | 'title'>,
  reply: Pick<Reply, 'id' | 'authorEmail'>,
  actor: Actor,
): NewNotification[] {
  return toOthers(
    [
      {
        recipientEmail: reply.authorEmail,
        kind: 'replyHidden',
        postId: post.id,
        replyId: reply.id,
        actor: null,
        postTitle: post.title,
        reason: null,
      },
    ],
    actor,
  );
}

// ---------------------------------------------------------------------------------------------
// Keyboard moderation (the /admin queue and the help dialog list the same keys)

export const REVIEW_SHORTCUTS = [
  { key: 'j', does: 'Next pending post' },
  { key: 'k', does: 'Previous pending post' },
  { key: 'a', does: 'Approve the current post' },
  { key: 'r', does: 'Reject the current post (with its Reason, if typed)' },
  { key: 'x', does: 'Select or unselect the current post' },
  { key: '?', does: 'Show these shortcuts' },
] as const;

// What waits, as the header says it (the forum's first frame needs these words, not the rest of this file).
export { pendingDescription, unreadDescription, unreadMessagesDescription } from './waiting-words';

/**
 * A mention (issue 42): each member `recipients` names hears "mentioned" from `author` (the writer
 * of the post or reply), except the writer and the acting member themselves and anyone `told`
 * already hears of the same thing (a post's author told "replied" is not told "mentioned" too).
 */
export function notificationsForMentions(
  post: Pick<Post, 'id' | 'title'>,
  replyId: string | null,
  author: Pick<Post, 'author' | 'authorEmail'>,
  recipients: readonly string[],
  actor: Actor,
  told: readonly NewNotification[] = [],
): NewNotification[] {
  return toEachOnce('mentioned', post, replyId, author, recipients, actor, told);
}

/**
 * The watchers of a post (issue 62) hear `watching` of a new reply (`replyId`) or of the post itself
 * on the forum (`replyId` null: it was approved in a category or tag they watch), from `author`: all
 * but the writer, the acting member and anyone `told` already of the same thing (a post's author
 * told "replied", someone quoted or mentioned): nobody is told twice of one reply.
 */
export function notificationsForWatchers(
  post: Pick<Post, 'id' | 'title'>,
  replyId: string | null,
  author: Pick<Post, 'author' | 'authorEmail'>,
  watchers: readonly string[],
  actor: Actor,
  told: readonly NewNotification[] = [],
): NewNotification[] {
  return toEachOnce('watching', post, replyId, author, watchers, actor, told);
}

/** One `kind` notification from `author` to each of `recipients` but the author, the actor and whoever is `told` already. */
function toEachOnce(
  kind: 'mentioned' | 'watching',
  post: Pick<Post, 'id' | 'title'>,
  replyId: string | null,
  author: Pick<Post, 'author' | 'authorEmail'>,
  recipients: readonly string[],
  actor: Actor,
  told: readonly NewNotification[],
): NewNotification[] {
  const skip = new Set([author.authorEmail, ...told.map((notification) => notification.recipientEmail)]);
  const list = [...new Set(recipients)]
    .filter((email) => !skip.has(email))
    .map((email) => ({
      recipientEmail: email,
      kind,
      postId: post.id,
      replyId,
      actor: author.author,
      actorEmail: author.authorEmail,
      postTitle: post.title,
      reason: null,
    }));
  return toOthers(list, actor);
}

// ---------------------------------------------------------------------------------------------
// Silence

/** What the staff decided of a member's writing: silenced (with why, and until when: null for no end date). */
export interface Silence {
  silenced?: boolean;
  silenceReason?: string | null;
  silencedUntil?: number | null;
}

/**
 * Whether a member is silenced at `now`: the one check every rule asks (the operations' mayWrite,
 * uploads, the device's screens), so a silence with an end date ends at it everywhere at once.
 */
export function isSilencedAt(silence: Silence | undefined | null, now: number): boolean {
  if (!silence?.silenced) return false;
  return silence.silencedUntil === null || silence.silencedUntil === undefined || silence.silencedUntil > now;
}
