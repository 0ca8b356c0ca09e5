// What a backup holds, counted in the same snapshot as the copy: the numbers `npm run backup`
// prints and writes into backup.json, and that `npm run restore` checks the restored database against.
import type { Sql } from '../db/storage/adapter';

export interface Holdings {
  /** The schema's version (its last migration). */
  schema: number;
  members: number;
  posts: { approved: number; pending: number; rejected: number };
  replies: number;
  pollVotes: number;
  attachments: { files: number; bytes: number };
  /** Emails written but not yet sent (they are sent after a restore). */
  emailsWaiting: number;
}

/** Counts what `sql` holds (call it in the snapshot being copied). */
export async function countHoldings(sql: Sql): Promise<Holdings> {
  const [row] = await sql.query<Record<string, unknown>>(
    `SELECT (SELECT coalesce(max(version), 0) FROM schema_migrations) AS schema,
       (SELECT count(*) FROM users) AS members,
       (SELECT count(*) FROM posts WHERE status = 'approved') AS approved,
       (SELECT count(*) FROM posts WHERE status = 'pending') AS pending,
       (SELECT count(*) FROM posts WHERE status = 'rejected') AS rejected,
       (SELECT count(*) FROM replies) AS replies,
       (SELECT count(*) FROM poll_votes) AS votes,
       (SELECT count(*) FROM attachments) AS files,
       (SELECT coalesce(sum(size), 0) FROM attachments) AS bytes,
       (SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL) AS mail`,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    schema: n('schema'),
    members: n('members'),
    posts: { approved: n('approved'), pending: n('pending'), rejected: n('rejected') },
    replies: n('replies'),
    pollVotes: n('votes'),
    attachments: { files: n('files'), bytes: n('bytes') },
    emailsWaiting: n('mail'),
  };
}

const count = (value: number, one: string, many = `${one}s`) => `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;

/** "3 members, 12 posts (10 approved, 2 pending, 0 rejected), 40 replies, 5 poll votes, 3 files (1.2 MB), 0 emails waiting". */
export function describeHoldings(holds: Holdings): string {
  const { approved, pending, rejected } = holds.posts;
  const megabytes = (holds.attachments.bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 });
  return [
    count(holds.members, 'member'),
    `${count(approved + pending + rejected, 'post')} (${approved} approved, ${pending} pending, ${rejected} rejected)`,
    count(holds.replies, 'reply', 'replies'),
    count(holds.pollVotes, 'poll vote'),
    `${count(holds.attachments.files, 'attached file')} (${megabytes} MB)`,
    count(holds.emailsWaiting, 'email waiting', 'emails waiting'),
  ].join(', ');
}
