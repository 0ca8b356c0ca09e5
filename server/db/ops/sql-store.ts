// The operations' store on the server (src/shared/ops/store.ts) over one SQL transaction, on PGlite
// and on PostgreSQL alike. Every row an operation writes takes the operation's change number; the
// number is only taken when a statement changed a row (an op that changes nothing, a member's second
// view, announces nothing). The rows it read and wrote last are kept for the answer (apply.ts).
import { randomUUID } from 'node:crypto';
import type { FlagState, FlagTarget, NewNotification } from '../../../src/shared/moderation';
import { OpRefusal } from '../../../src/shared/ops/define';
import type { OpPost, OpStore, PostChanges, ReplyChanges, SettledFlags } from '../../../src/shared/ops/store';
import type { Actor, PostAuthor, Reply } from '../../../src/shared/post-rules';
import type { Flag } from '../../../src/shared/moderation';
import type { Theme } from '../../../src/shared/theme';
import type { UserRow } from '../members/accounts';
import { INSERT_POST, insertParams, toOpPost, type PostRow } from '../posts/post-rows';
import { INSERT_REPLY, insertReplyParams, toReply, type ReplyRow } from '../replies/reply-rows';
import type { Sql } from '../storage/adapter';

type Row = Record<string, unknown>;

/** The posts columns an operation may change, by the OpPost field that holds them. */
const POST_COLUMNS: Record<keyof PostChanges, { column: string; cast?: string; json?: boolean }> = {
  title: { column: 'title' },
  content: { column: 'content' },
  category: { column: 'category' },
  author: { column: 'author' },
  authorEmail: { column: 'author_email' },
  authorRole: { column: 'author_role' },
  likes: { column: 'likes' },
  comments: { column: 'comments' },
  views: { column: 'views' },
  date: { column: 'date' },
  isTopContributor: { column: 'is_top_contributor' },
  tags: { column: 'tags', cast: 'jsonb', json: true },
  status: { column: 'status' },
  editedAt: { column: 'edited_at', cast: 'bigint' },
  resubmitted: { column: 'resubmitted' },
  previous: { column: 'previous', cast: 'jsonb', json: true },
  reason: { column: 'reason' },
  submittedAt: { column: 'submitted_at', cast: 'bigint' },
  reviewedAt: { column: 'reviewed_at', cast: 'bigint' },
  hiddenAt: { column: 'hidden_at', cast: 'bigint' },
};

const REPLY_COLUMNS: Record<keyof ReplyChanges, string> = { content: 'content', state: 'state', editedAt: 'edited_at' };

/** The change number of one operation: the next one, taken by the first statement that changes a row. */
export class ChangeNumber {
  taken = false;
  constructor(readonly seq: number) {}
}

export class SqlStore implements OpStore {
  /** The posts and replies as the operation last read or wrote them (none: gone). */
  readonly posts = new Map<number, PostRow | null>();
  readonly replies = new Map<string, ReplyRow | null>();
  /** The flag the operation made, with its flagger. */
  flagRow?: Row;

  constructor(
    private readonly tx: Sql,
    private readonly user: UserRow,
    readonly change: ChangeNumber,
    private lastPostId: number,
  ) {}

  /** Runs a statement that stamps `seq = $n` on what it changes; the number is taken when it changed a row. */
  private async write(text: string, params: unknown[]): Promise<Row[]> {
    const rows = await this.tx.query(text, params);
    if (rows.length > 0) this.change.taken = true;
    return rows;
  }

  /** The acting member's account id (a store serves the one member whose push it applies). */
  private userId(actor: Actor): number {
    if (actor.email !== this.user.email) throw new Error('A server store acts for the member whose push it applies.');
    return this.user.id;
  }

  async member(actor: Actor): Promise<PostAuthor> {
    const [row] = await this.tx.query('SELECT name FROM users WHERE id = $1', [this.userId(actor)]);
    return { email: actor.email, role: actor.role, name: row ? String(row.name) : this.user.name };
  }

  async post(id: number): Promise<OpPost | undefined> {
    const [row] = await this.tx.query('SELECT * FROM posts WHERE id = $1', [id]);
    this.posts.set(id, row ?? null);
    return row ? toOpPost(row) : undefined;
  }

  async newPostId(now: number): Promise<number> {
    const id = Math.max(this.lastPostId + 1, now);
    this.lastPostId = id;
    await this.tx.query('UPDATE change_head SET last_post_id = $1', [id]);
    return id;
  }

  async insertPost(post: OpPost): Promise<void> {
    // INSERT_POST stays the statement of every schema version; when it entered the queue comes after.
    const [row] = await this.write(INSERT_POST, insertParams(post, this.change.seq));
    this.posts.set(post.id, row!);
    if (post.submittedAt !== undefined) await this.updatePost(post.id, { submittedAt: post.submittedAt });
  }

  async updatePost(id: number, changes: PostChanges): Promise<void> {
    const params: unknown[] = [id, this.change.seq];
    const sets = Object.entries(changes).map(([field, value]) => {
      const { column, cast, json } = POST_COLUMNS[field as keyof PostChanges];
      params.push(json && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null));
      return `${column} = $${params.length}${cast ? `::${cast}` : ''}`;
    });
    const [row] = await this.write(`UPDATE posts SET ${[...sets, 'seq = $2'].join(', ')} WHERE id = $1 RETURNING *`, params);
    this.posts.set(id, row ?? null);
  }

  async addLikes(id: number, count: number): Promise<void> {
    const [row] = await this.write('UPDATE posts SET likes = likes + $2, seq = $3 WHERE id = $1 RETURNING *', [id, count, this.change.seq]);
    this.posts.set(id, row ?? null);
  }

  async removePost(id: number, by: Actor): Promise<void> {
    // Through jsonb, column by name: every column of posts lands in its namesake, whatever their order.
    await this.write(
      `WITH gone AS (DELETE FROM posts WHERE id = $1 RETURNING *)
       INSERT INTO deleted_posts
       SELECT (jsonb_populate_record(NULL::deleted_posts,
         to_jsonb(gone) || jsonb_build_object('seq', $2::bigint, 'deleted_at', $3::bigint, 'deleted_by', $4::bigint))).*
       FROM gone RETURNING id`,
      [id, this.change.seq, Date.now(), this.userId(by)],
    );
    this.posts.set(id, null);
  }

  async firstView(actor: Actor, postId: number): Promise<boolean> {
    const [first] = await this.tx.query(
      'INSERT INTO post_views (user_id, post_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING post_id',
      [this.userId(actor), postId],
    );
    return first !== undefined;
  }

  async reply(id: string): Promise<Reply | undefined> {
    const [row] = await this.tx.query('SELECT * FROM replies WHERE id = $1', [id]);
    this.replies.set(id, row ?? null);
    return row ? toReply(row) : undefined;
  }

  async insertReply(reply: Reply): Promise<void> {
    const [row] = await this.write(INSERT_REPLY, insertReplyParams(reply, this.change.seq));
    // A reply of this id without its op: a sample reply's id, which only a forged op can carry.
    if (!row) throw new OpRefusal('conflict');
    this.replies.set(reply.id, row);
  }

  async updateReply(id: string, changes: ReplyChanges): Promise<void> {
    const params: unknown[] = [id, this.change.seq];
    const sets = Object.entries(changes).map(([field, value]) => {
      params.push(value);
      return `${REPLY_COLUMNS[field as keyof ReplyChanges]} = $${params.length}`;
    });
    const [row] = await this.write(`UPDATE replies SET ${[...sets, 'seq = $2'].join(', ')} WHERE id = $1 RETURNING *`, params);
    this.replies.set(id, row ?? null);
  }

  async recountComments(postId: number): Promise<void> {
    const [changed] = await this.write(
      `WITH counted AS (SELECT count(*)::int AS n FROM replies WHERE post_id = $1 AND state = 'visible')
       UPDATE posts p SET comments = counted.n, seq = $2 FROM counted WHERE p.id = $1 AND p.comments <> counted.n RETURNING p.*`,
      [postId, this.change.seq],
    );
    if (changed) this.posts.set(postId, changed);
  }

  async hasFlagged(actor: Actor, target: FlagTarget): Promise<boolean> {
    const [row] = await this.tx.query(
      'SELECT 1 FROM flags WHERE user_id = $1 AND post_id = $2 AND reply_id IS NOT DISTINCT FROM $3::uuid',
      [this.userId(actor), target.postId, target.replyId],
    );
    return row !== undefined;
  }

  async insertFlag(flag: Flag): Promise<void> {
    // The unique index flags_once makes a second flag of the same item by the same member a no-op.
    const [row] = await this.write(
      `INSERT INTO flags (id, user_id, post_id, reply_id, reason, text, created_at, state, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING *`,
      [
        flag.id,
        this.userId({ email: flag.flaggerEmail, role: this.user.role }),
        flag.postId,
        flag.replyId,
        flag.reason,
        flag.text,
        flag.createdAt,
        flag.state,
        this.change.seq,
      ],
    );
    if (!row) throw new OpRefusal('already_flagged');
    this.flagRow = { ...row, flagger: flag.flagger, flagger_email: flag.flaggerEmail };
  }

  async settleFlags(target: SettledFlags, state: Exclude<FlagState, 'open'>): Promise<void> {
    const which = target.replyId === 'all' ? '' : target.replyId === null ? ' AND reply_id IS NULL' : ' AND reply_id = $4::uuid';
    const params: unknown[] = [target.postId, state, this.change.seq];
    if (target.replyId !== null && target.replyId !== 'all') params.push(target.replyId);
    await this.write(`UPDATE flags SET state = $2, seq = $3 WHERE post_id = $1 AND state = 'open'${which} RETURNING id`, params);
  }

  /** One row per recipient who has an account (a recipient known only by an email, a sample post's author, gets none). */
  async notify(list: readonly NewNotification[], now: number): Promise<void> {
    if (list.length === 0) return;
    const rows = list.map((notification) => ({ ...notification, id: randomUUID() }));
    await this.write(
      `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, actor, post_title, reason, created_at, read_at, seq)
       SELECT (e->>'id')::uuid, u.id, e->>'kind', (e->>'postId')::bigint, (e->>'replyId')::uuid, e->>'actor', e->>'postTitle',
         e->>'reason', $2::bigint, NULL, $3::bigint
       FROM jsonb_array_elements($1::text::jsonb) e JOIN users u ON u.email = e->>'recipientEmail' RETURNING id`,
      [JSON.stringify(rows), now, this.change.seq],
    );
  }

  async readNotifications(actor: Actor, ids: readonly string[], at: number): Promise<void> {
    await this.write(
      `UPDATE notifications SET read_at = $2, seq = $3
       WHERE user_id = $1 AND read_at IS NULL AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($4::text::jsonb)) RETURNING id`,
      [this.userId(actor), at, this.change.seq, JSON.stringify(ids)],
    );
  }

  async saved(actor: Actor, postId: number): Promise<boolean | undefined> {
    const [row] = await this.tx.query('SELECT saved FROM saved_posts WHERE user_id = $1 AND post_id = $2', [this.userId(actor), postId]);
    return row ? row.saved === true : undefined;
  }

  async setSaved(actor: Actor, postId: number, saved: boolean, at: number): Promise<void> {
    await this.write(
      `INSERT INTO saved_posts (user_id, post_id, saved, at, seq) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, post_id) DO UPDATE SET saved = EXCLUDED.saved, at = EXCLUDED.at, seq = EXCLUDED.seq RETURNING post_id`,
      [this.userId(actor), postId, saved, at, this.change.seq],
    );
  }

  async setTheme(actor: Actor, theme: Theme): Promise<void> {
    await this.write('UPDATE users SET theme = $2, prefs_seq = $3 WHERE id = $1 RETURNING id', [
      this.userId(actor),
      theme,
      this.change.seq,
    ]);
  }

  /**
   * The name on the account, and as the author of each of the member's posts and replies whose name
   * differs, each given the change number so every device (of any protocol version) pulls it. Their
   * flags take it too (an admin's device shows the flagger's name). A deleted post keeps its number
   * (its row is never pulled again) but takes the name.
   */
  async rename(actor: Actor, name: string): Promise<void> {
    const [id, seq] = [this.userId(actor), this.change.seq];
    await this.write('UPDATE users SET name = $2, prefs_seq = $3 WHERE id = $1 RETURNING id', [id, name, seq]);
    await this.write('UPDATE posts SET author = $2, seq = $3 WHERE author_email = $1 AND author <> $2 RETURNING id', [
      actor.email,
      name,
      seq,
    ]);
    await this.write('UPDATE replies SET author = $2, seq = $3 WHERE author_email = $1 AND author <> $2 RETURNING id', [
      actor.email,
      name,
      seq,
    ]);
    await this.tx.query('UPDATE deleted_posts SET author = $2 WHERE author_email = $1 AND author <> $2', [actor.email, name]);
    await this.write('UPDATE flags SET seq = $2 WHERE user_id = $1 RETURNING id', [id, seq]);
  }
}
