// Email notifications (issue 41, item 5), run by every instance's MailWorker at each round:
// - "When I'm away" (the default): a notification still unread 10 minutes after it was made is
//   emailed, with everything else the member has not read, in one message, at most one message per
//   10 minutes per member. A notification read on any device (read_at) is never emailed.
// - "Daily digest": once per UTC day, from 07:00 UTC: first what the member watches (issue 62: posts
//   with new replies that day, new posts in categories and tags they watch), then the day's
//   notifications and the most liked posts approved that day (what was read on a device is left
//   out), never a post they muted (follows.ts: effectiveLevel, mutedOut); nothing is sent on a day
//   with nothing to say.
// - A conversation is one line in an email, however many replies it had (templates.ts, noteItems).
// Only to members whose address is confirmed and whose account is open. Each member is handled
// in a transaction that locks their row and checks again, so two instances never both email them.
// What a notification names is looked at again when the email is written (issue 59): a post hidden,
// rejected or deleted since, or a reply hidden or deleted since, is left out if the reader may no
// longer see it (the visibility rule of post-rows.ts), and an email with nothing left is not sent.
// The posts an email names go with it (mail_outbox.post_ids): the worker looks again when it sends
// (outbox.ts), and one naming a post its reader may no longer see is not sent.
import type { Database, Sql } from '../db/storage/adapter';
import { issueToken } from '../db/members/tokens';
import { notificationColumns, toWireNotification } from '../db/notifications/notification-rows';
import { notificationSeenSql, postVisibleSql, publicPostSql, sqlViewer } from '../../src/shared/visibility';
import { effectiveLevel, levelLookup, mutedOut, type FollowKind, type FollowLevel, type LevelOf } from '../../src/shared/follows';
import { parsedJson } from '../db/storage/json-column';
import { enqueueMail } from './outbox';
import { awayMessages, awayNotifications, dailyDigest, emptyDigest, type DigestContent, type UnreadConversation } from './templates';

export const AWAY_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** The hour (UTC) from which a day's digest goes. */
export const DIGEST_HOUR_UTC = 7;
/** At most this many notifications are listed in one email (the rest are one click away). */
const MAX_LISTED = 20;
/** Members handled per round (the next round takes the rest). */
const BATCH = 50;

interface Member {
  id: number;
  email: string;
  name: string;
}

const toMember = (row: Record<string, unknown>): Member => ({ id: Number(row.id), email: String(row.email), name: String(row.name) });

/** Mailable: confirmed, open, someone who can sign in, and wanting `pref`. */
const MAILABLE = (pref: string) =>
  `u.email_pref = '${pref}' AND u.email_verified_at IS NOT NULL AND u.closed_at IS NULL AND u.password_hash <> ''`;

async function unsubscribeUrl(tx: Sql, member: Member, origin: string): Promise<string> {
  return `${origin}/unsubscribe?token=${await issueToken(tx, member.id, 'unsubscribe', member.email)}`;
}

/**
 * True (SQL) while notification `y`'s reader may still see what it names: its post (gone once
 * deleted), by the rule every read follows, and its reply, if any, by the reply rule. A "your reply was
 * hidden" notice names a reply hidden on purpose: its post is what is checked.
 */
const STILL_SEEN = notificationSeenSql('y');

/** The member's notifications selected by `where` (on `y`) whose subject they may still see, newest first, as the wire shape. */
async function notes(tx: Sql, userId: number, where: string, params: unknown[]) {
  const rows = await tx.query(
    `SELECT ${notificationColumns('y', 'a')} FROM notifications y LEFT JOIN users a ON a.id = y.actor_id
     WHERE y.user_id = $1 AND ${where} AND ${STILL_SEEN} ORDER BY y.created_at DESC LIMIT ${MAX_LISTED + 1}`,
    [userId, ...params],
  );
  return rows.map(toWireNotification);
}

/** One round of "When I'm away"; returns how many emails it queued. */
export async function awayRound(db: Database, origin: string, now = Date.now()): Promise<number> {
  const due = await db.query(
    `SELECT u.id, u.email, u.name FROM users u
     WHERE ${MAILABLE('away')} AND (u.away_emailed_at IS NULL OR u.away_emailed_at <= $1)
       AND EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = u.id AND n.read_at IS NULL AND n.emailed_at IS NULL AND n.created_at <= $2)
     ORDER BY u.id LIMIT ${BATCH}`,
    [now - AWAY_MS, now - AWAY_MS],
  );
  let queued = 0;
  for (const member of due.map(toMember)) {
    const sent = await db.transaction(async (tx) => {
      // Locked and checked again: another instance may have emailed them meanwhile.
      const [still] = await tx.query(
        `SELECT u.id FROM users u WHERE u.id = $1 AND ${MAILABLE('away')} AND (u.away_emailed_at IS NULL OR u.away_emailed_at <= $2) FOR UPDATE`,
        [member.id, now - AWAY_MS],
      );
      if (!still) return false;
      // What the member may no longer see is never emailed: marked so, it is not looked at again.
      await tx.query(
        `UPDATE notifications y SET emailed_at = $2 WHERE y.user_id = $1 AND y.read_at IS NULL AND y.emailed_at IS NULL AND NOT ${STILL_SEEN}`,
        [member.id, now],
      );
      const unread = await notes(tx, member.id, 'y.read_at IS NULL AND y.emailed_at IS NULL', []);
      if (!unread.some((note) => note.createdAt <= now - AWAY_MS)) return false;
      await tx.query('UPDATE notifications SET emailed_at = $2 WHERE user_id = $1 AND read_at IS NULL AND emailed_at IS NULL', [
        member.id,
        now,
      ]);
      await tx.query('UPDATE users SET away_emailed_at = $2 WHERE id = $1', [member.id, now]);
      const content = awayNotifications(member.name, origin, unread.slice(0, MAX_LISTED), await unsubscribeUrl(tx, member, origin));
      const postIds = unread.slice(0, MAX_LISTED).map((note) => note.postId);
      await enqueueMail(tx, { kind: 'away', to: member.email, userId: member.id, content, postIds });
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}

/** The UTC day of `now` as YYYY-MM-DD. */
const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);

/** A post as the digest weighs it against the member's levels. */
interface DigestPost {
  id: number;
  title: string;
  category: string;
  tags: string[];
  likes: number;
  authorEmail: string;
}

const toDigestPost = (row: Record<string, unknown>): DigestPost => {
  const tags = parsedJson(row.tags);
  return {
    id: Number(row.id),
    title: String(row.title ?? ''),
    category: String(row.category),
    tags: Array.isArray(tags) ? tags.map(String) : [],
    likes: Number(row.likes ?? 0),
    authorEmail: String(row.author_email ?? ''),
  };
};

/** The posts the member (users `me`, $1) may see on the forum: approved, not hidden. */
const LISTED_TO_ME = `p.status = 'approved' AND p.hidden_at IS NULL AND ${postVisibleSql(sqlViewer("(me.role = 'admin')", 'me.email'), 'p')}`;
/** The day's posts weighed against each member's levels, at most (the newest first). */
const DAY_POSTS = 5_000;
/** The most liked new posts a digest lists. */
const POPULAR = 5;

/** What one round reads once for every member's digest: the day's posts, by what happened to them. */
interface DigestDay {
  since: number;
  /** Posts on the forum with visible replies written since. */
  active: DigestPost[];
  /** Posts approved since. */
  fresh: DigestPost[];
  /** The most liked of the public ones, more than are listed (each member's leaves out what they muted). */
  popular: DigestPost[];
}

async function digestDay(db: Database, since: number): Promise<DigestDay> {
  const onForum = `p.status = 'approved' AND p.hidden_at IS NULL`;
  const active = await db.query(
    `SELECT p.id, p.title, p.category, p.tags FROM posts p WHERE ${onForum}
       AND p.id IN (SELECT r.post_id FROM replies r WHERE r.created_at > $1 AND r.state = 'visible')
     ORDER BY p.id DESC LIMIT ${DAY_POSTS}`,
    [since],
  );
  const fresh = await db.query(
    `SELECT p.id, p.title, p.category, p.tags, p.author_email FROM posts p WHERE ${onForum} AND coalesce(p.reviewed_at, p.id) > $1
     ORDER BY p.id DESC LIMIT ${DAY_POSTS}`,
    [since],
  );
  const popular = await db.query(
    `SELECT id, title, category, tags, likes FROM posts WHERE ${publicPostSql()} AND hidden_at IS NULL AND coalesce(reviewed_at, id) > $1
     ORDER BY likes DESC, id DESC LIMIT ${POPULAR * 10}`,
    [since],
  );
  return { since, active: active.map(toDigestPost), fresh: fresh.map(toDigestPost), popular: popular.map(toDigestPost) };
}

/** The member's levels (follows) as a lookup. */
async function levelsOf(tx: Sql, userId: number): Promise<LevelOf> {
  const rows = await tx.query('SELECT kind, target, level FROM follows WHERE user_id = $1', [userId]);
  return levelLookup(rows.map((row) => ({ kind: row.kind as FollowKind, target: String(row.target), level: row.level as FollowLevel })));
}

/**
 * What the member's digest says today (DigestContent): of the day's posts, those they watch and may
 * see, with replies by others (and how many), or new by others; their unread notifications but those
 * about a post they muted; and of the most liked, those they did not mute nor see listed above.
 */
async function digestOf(tx: Sql, member: Member, day: DigestDay): Promise<DigestContent> {
  const levelOf = await levelsOf(tx, member.id);
  const watching = (post: DigestPost) => effectiveLevel(post, levelOf) === 'watching';
  const replied = day.active.filter(watching);
  const fresh = day.fresh.filter((post) => watching(post) && post.authorEmail !== member.email);
  // Of those, what the member may see, and how many replies others wrote there (replies_post).
  const seen =
    replied.length + fresh.length === 0
      ? new Map<number, number>()
      : new Map(
          (
            await tx.query(
              `SELECT p.id, (SELECT count(*)::int FROM replies r WHERE r.post_id = p.id AND r.created_at > $3 AND r.state = 'visible'
                 AND r.author_email <> me.email) AS replies
               FROM posts p JOIN users me ON me.id = $1 WHERE p.id = ANY($2::bigint[]) AND ${LISTED_TO_ME}`,
              [member.id, [...replied, ...fresh].map((post) => post.id), day.since],
            )
          ).map((row) => [Number(row.id), Number(row.replies)]),
        );
  const watchedPosts = replied
    .filter((post) => (seen.get(post.id) ?? 0) > 0)
    .map(({ id, title }) => ({ id, title, replies: seen.get(id)! }))
    .sort((a, b) => b.replies - a.replies)
    .slice(0, MAX_LISTED);
  const inWatchedPosts = new Set(watchedPosts.map((post) => post.id));
  const watchedNew = fresh
    .filter((post) => seen.has(post.id) && !inWatchedPosts.has(post.id))
    .slice(0, MAX_LISTED)
    .map(({ id, title, category }) => ({ id, title, category }));
  const listed = new Set([...inWatchedPosts, ...watchedNew.map((post) => post.id)]);
  const unread = await notes(tx, member.id, 'y.created_at > $2 AND y.read_at IS NULL', [day.since]);
  const noted = new Map(
    (await tx.query('SELECT id, category, tags FROM posts WHERE id = ANY($1::bigint[])', [[...new Set(unread.map((note) => note.postId))]]))
      .map(toDigestPost)
      .map((post) => [post.id, post]),
  );
  const kept = unread.filter((note) => {
    const post = noted.get(note.postId);
    if (post && effectiveLevel(post, levelOf) === 'muted') return false;
    // A watched post's replies, a watched category's new post: their line above says it.
    return !(note.kind === 'watching' && listed.has(note.postId));
  });
  return {
    watchedPosts,
    watchedNew,
    notes: kept.slice(0, MAX_LISTED),
    popular: day.popular.filter((post) => !mutedOut(post, levelOf) && !listed.has(post.id)).slice(0, POPULAR),
  };
}

/** One round of "Daily digest"; returns how many emails it queued. */
export async function digestRound(db: Database, origin: string, now = Date.now()): Promise<number> {
  if (new Date(now).getUTCHours() < DIGEST_HOUR_UTC) return 0;
  const today = utcDay(now);
  const due = await db.query(
    `SELECT u.id, u.email, u.name FROM users u WHERE ${MAILABLE('digest')} AND (u.digest_sent_on IS NULL OR u.digest_sent_on < $1::date)
     ORDER BY u.id LIMIT ${BATCH}`,
    [today],
  );
  if (due.length === 0) return 0;
  const day = await digestDay(db, now - DAY_MS);
  let queued = 0;
  for (const member of due.map(toMember)) {
    const sent = await db.transaction(async (tx) => {
      const [still] = await tx.query(
        `SELECT u.id FROM users u WHERE u.id = $1 AND ${MAILABLE('digest')} AND (u.digest_sent_on IS NULL OR u.digest_sent_on < $2::date) FOR UPDATE`,
        [member.id, today],
      );
      if (!still) return false;
      await tx.query('UPDATE users SET digest_sent_on = $2::date WHERE id = $1', [member.id, today]);
      const digest = await digestOf(tx, member, day);
      if (emptyDigest(digest)) return false;
      const content = dailyDigest(member.name, origin, digest, await unsubscribeUrl(tx, member, origin));
      const postIds = [
        ...new Set(
          [...digest.watchedPosts, ...digest.watchedNew, ...digest.notes.map((note) => ({ id: note.postId })), ...digest.popular].map(
            (post) => post.id,
          ),
        ),
      ];
      await enqueueMail(tx, { kind: 'digest', to: member.email, userId: member.id, content, postIds });
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}

/**
 * The messages `member` has not read, by others, in conversations they take part in and have not
 * left, and not yet told of by email: per conversation (newest first), with the newest one's time.
 */
const UNREAD_MESSAGES = `
  SELECT c.id, c.subject, count(*)::int AS count, max(y.created_at) AS newest,
    array_agg(DISTINCT a.name ORDER BY a.name) AS senders
  FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
    JOIN messages y ON y.conversation_id = m.conversation_id JOIN users a ON a.id = y.user_id
  WHERE m.user_id = $1 AND m.left_at IS NULL AND y.user_id <> m.user_id
    AND y.created_at > coalesce(m.last_read_at, 0) AND y.created_at > coalesce(m.emailed_at, 0)
  GROUP BY c.id, c.subject ORDER BY max(y.created_at) DESC`;

/**
 * One round of "When I'm away" for messages (issue 61), as for notifications: a message still unread
 * 10 minutes after it was written is emailed (which conversations, how many, from whom; never their
 * text), with every other unread one, in one email, at most one email per 10 minutes per member
 * (notifications and messages share the pause). Returns how many emails it queued.
 */
export async function awayMessagesRound(db: Database, origin: string, now = Date.now()): Promise<number> {
  const due = await db.query(
    `SELECT u.id, u.email, u.name FROM users u
     WHERE ${MAILABLE('away')} AND (u.away_emailed_at IS NULL OR u.away_emailed_at <= $1)
       AND EXISTS (SELECT 1 FROM conversation_members m JOIN messages y ON y.conversation_id = m.conversation_id
         WHERE m.user_id = u.id AND m.left_at IS NULL AND y.user_id <> u.id AND y.created_at <= $1
           AND y.created_at > coalesce(m.last_read_at, 0) AND y.created_at > coalesce(m.emailed_at, 0))
     ORDER BY u.id LIMIT ${BATCH}`,
    [now - AWAY_MS],
  );
  let queued = 0;
  for (const member of due.map(toMember)) {
    const sent = await db.transaction(async (tx) => {
      const [still] = await tx.query(
        `SELECT u.id FROM users u WHERE u.id = $1 AND ${MAILABLE('away')} AND (u.away_emailed_at IS NULL OR u.away_emailed_at <= $2) FOR UPDATE`,
        [member.id, now - AWAY_MS],
      );
      if (!still) return false;
      const rows = await tx.query(UNREAD_MESSAGES, [member.id]);
      if (!rows.some((row) => Number(row.newest) <= now - AWAY_MS)) return false;
      // Each conversation is told up to its newest message, in one statement.
      await tx.query(
        `UPDATE conversation_members m SET emailed_at = v.newest
         FROM unnest($2::uuid[], $3::bigint[]) AS v(id, newest) WHERE m.conversation_id = v.id AND m.user_id = $1`,
        [member.id, rows.map((row) => String(row.id)), rows.map((row) => Number(row.newest))],
      );
      await tx.query('UPDATE users SET away_emailed_at = $2 WHERE id = $1', [member.id, now]);
      const conversations: UnreadConversation[] = rows.slice(0, MAX_LISTED).map((row) => ({
        id: String(row.id),
        subject: String(row.subject),
        count: Number(row.count),
        senders: (row.senders as unknown[]).map(String),
      }));
      const content = awayMessages(member.name, origin, conversations, await unsubscribeUrl(tx, member, origin));
      await enqueueMail(tx, { kind: 'away', to: member.email, userId: member.id, content });
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
