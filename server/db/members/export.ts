// "Download my data" (issue 41, item 6): everything the server holds about one member, read in one
// transaction so the file is one moment's picture. Likes are counted on posts, not kept per member:
// what the member sent (each operation's post and time, likes among them) is listed as `activity`.
import { toWirePoll } from '../posts/poll-rows';
import type { Sql } from '../storage/adapter';
import type { UserRow } from './accounts';
import { listSessions } from './accounts';
import { describeUserAgent } from '../../../src/shared/account';
import { parsedJson } from '../storage/json-column';
import { notificationSeenSql, recipientCategorySeenSql } from '../../../src/shared/visibility';

const ms = (value: unknown): number | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.getTime() : Number(value);

// What others wrote in a private category the member may no longer see (a poll's words) is left
// out of their file, as of every read; what they wrote stays. A notification's post title and
// reason stay only while the member may still see what it names (maySeeNotification, as their pull):
// not once its post is deleted or hidden from them, nor its reply hidden.
const SEES_POST = (postId: string) => recipientCategorySeenSql('$2', '$1', postId);
const SEES_NOTIFICATION = notificationSeenSql('n');

export async function exportMember(tx: Sql, user: UserRow): Promise<Record<string, unknown>> {
  const kept = await tx.query('SELECT * FROM posts WHERE author_email = $1 ORDER BY id', [user.email]);
  const deleted = await tx.query('SELECT * FROM deleted_posts WHERE author_email = $1 ORDER BY id', [user.email]);
  const post = (row: Record<string, unknown>, isDeleted: boolean) => ({
    id: Number(row.id),
    title: row.title,
    content: row.content,
    category: row.category,
    tags: row.tags,
    status: row.status,
    reason: row.reason ?? null,
    likes: Number(row.likes),
    replies: Number(row.comments),
    views: Number(row.views),
    date: row.date,
    editedAt: ms(row.edited_at),
    deleted: isDeleted,
  });
  const posts = [...kept.map((row) => post(row, false)), ...deleted.map((row) => post(row, true))];
  const replies = await tx.query(
    'SELECT id, post_id, content, state, quote_id, created_at, edited_at FROM replies WHERE author_email = $1 ORDER BY created_at',
    [user.email],
  );
  const flags = await tx.query(
    'SELECT id, post_id, reply_id, reason, text, created_at, state FROM flags WHERE user_id = $1 ORDER BY created_at',
    [user.id],
  );
  const saved = await tx.query('SELECT post_id, at FROM saved_posts WHERE user_id = $1 AND saved ORDER BY at', [user.id]);
  const uploads = await tx.query(
    `SELECT u.sha256, u.name, u.at, a.mime, a.size FROM attachment_uploads u JOIN attachments a ON a.sha256 = u.sha256 WHERE u.user_id = $1 ORDER BY u.at`,
    [user.id],
  );
  const votes = await tx.query(
    `SELECT v.post_id, v.choices, v.at, CASE WHEN ${SEES_POST('v.post_id')} THEN p.poll END AS poll
     FROM poll_votes v JOIN posts p ON p.id = v.post_id WHERE v.user_id = $1 ORDER BY v.at`,
    [user.id, user.role === 'admin'],
  );
  const notifications = await tx.query(
    `SELECT id, kind, post_id, reply_id, actor, CASE WHEN ${SEES_NOTIFICATION} THEN post_title ELSE '' END AS post_title,
       CASE WHEN ${SEES_NOTIFICATION} THEN reason END AS reason, created_at, read_at, emailed_at
     FROM notifications n WHERE user_id = $1 ORDER BY created_at`,
    [user.id],
  );
  const activity = await tx.query('SELECT post_id, reply_id, applied_at FROM ops WHERE user_id = $1 ORDER BY applied_at', [user.id]);
  const [prefs] = await tx.query('SELECT * FROM users WHERE id = $1', [user.id]);
  const emails = await tx.query('SELECT kind, subject, created_at, sent_at FROM mail_outbox WHERE user_id = $1 ORDER BY id', [user.id]);
  return {
    exportedAt: new Date().toISOString(),
    product: 'Insight Exchange',
    account: {
      email: user.email,
      name: user.name,
      role: user.role,
      memberId: user.memberId,
      createdAt: user.createdAt ?? null,
      emailVerifiedAt: user.emailVerifiedAt ?? null,
    },
    preferences: { emailMe: user.emailPref ?? 'away', theme: prefs?.theme ?? null },
    posts,
    replies,
    likesAndOtherActivity: activity.map((row) => ({ postId: ms(row.post_id), replyId: row.reply_id ?? null, at: ms(row.applied_at) })),
    flags,
    savedPosts: saved.map((row) => ({ postId: Number(row.post_id), at: ms(row.at) })),
    attachments: uploads.map((row) => ({
      sha256: String(row.sha256),
      name: String(row.name),
      type: String(row.mime),
      size: Number(row.size),
      uploadedAt: ms(row.at),
      path: `/api/attachments/${String(row.sha256)}`,
    })),
    pollVotes: votes.map((row) => {
      const poll = toWirePoll(row);
      const choices = parsedJson(row.choices) as number[];
      return {
        postId: Number(row.post_id),
        question: poll?.question ?? '',
        answers: choices.map((index) => poll?.options[index] ?? ''),
        at: ms(row.at),
      };
    }),
    notifications,
    emails,
    sessions: (await listSessions(tx, user.id)).map((session) => ({
      ...describeUserAgent(session.userAgent),
      userAgent: session.userAgent,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
    })),
  };
}
