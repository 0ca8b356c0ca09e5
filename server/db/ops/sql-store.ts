// The operations' store on the server (src/shared/ops/store.ts) over one SQL transaction, on PGlite
// and on PostgreSQL alike. Every row an operation writes takes the operation's change number; the
// number is only taken when a statement changed a row (an op that changes nothing, a member's second
// view, announces nothing). The rows it read and wrote last are kept for the answer (apply.ts).
import { randomUUID } from 'node:crypto';
import type { FlagState, FlagTarget, NewNotification } from '../../../src/shared/moderation';
import { OpRefusal } from '../../../src/shared/ops/define';
import type {
  MemberModeration,
  ModeratedMember,
  OpPost,
  OpStore,
  PostChanges,
  ReplyChanges,
  SettledFlags,
} from '../../../src/shared/ops/store';
import type { Actor, PostAuthor, Reply } from '../../../src/shared/post-rules';
import { collapses, isSilencedAt, type Flag } from '../../../src/shared/moderation';
import { targetsOf, type FollowKind, type FollowLevel, type FollowedPost, type MemberLevel } from '../../../src/shared/follows';
import type { Theme } from '../../../src/shared/theme';
import { endSessions, nameTaken, type UserRow } from '../members/accounts';
import { findableMember } from '../members/members';
import { nameKey } from '../../../src/shared/names';
import { groupNameKey, type Group } from '../../../src/shared/groups';
import { categoryNameKey, type Category } from '../../../src/shared/categories';
import { INSERT_POST, insertParams, toOpPost, type PostRow } from '../posts/post-rows';
import { storedPoll } from '../posts/poll-rows';
import { categorySeeGroups } from '../groups/categories';
import { recipientSeesCategorySql } from '../../../src/shared/visibility';
import { toAttachment } from '../posts/attachment-rows';
import type { Attachment } from '../../../src/shared/attachments';
import { INSERT_REPLY, insertReplyParams, toReply, type ReplyRow } from '../replies/reply-rows';
import type { Sql } from '../storage/adapter';
import type { Conversation, Message } from '../../../src/shared/messages';
import { Audience, conversationAudience, postAudience } from '../sync/audience';
import { messageAttachments } from '../messages/message-rows';

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
  poll: { column: 'poll', cast: 'text::jsonb' },
  attachments: { column: 'attachments', cast: 'text::jsonb', json: true },
};

const REPLY_COLUMNS: Record<keyof ReplyChanges, string> = { content: 'content', state: 'state', editedAt: 'edited_at' };

/** The change number of one operation: the next one, taken by the first statement that changes a row. */
/**
 * The change numbers an operation takes: `seq`, the one every row it writes carries, and one number
 * per row for a write that reaches many rows (settling a post's flags, a spammer's posts), numbered
 * on from the last taken, so that no page of a pull must carry more rows than its limit for one
 * change. `last` is the highest taken (seq - 1 while none is): the op's answer and the change head.
 */
export class ChangeNumber {
  taken = false;
  last: number;
  constructor(readonly seq: number) {
    this.last = seq - 1;
  }
  /** A statement wrote rows carrying `seq`. */
  takeSeq(): void {
    this.taken = true;
    this.last = Math.max(this.last, this.seq);
  }
  /** A statement numbered `count` rows `last` + 1, + 2… (read `last` before it runs). */
  advance(count: number): void {
    if (count === 0) return;
    this.last += count;
    this.taken = true;
  }
}

export class SqlStore implements OpStore {
  /** The posts and replies as the operation last read or wrote them (none: gone). */
  readonly posts = new Map<number, PostRow | null>();
  readonly replies = new Map<string, ReplyRow | null>();
  /** The flag the operation made, with its flagger. */
  flagRow?: Row;
  /** The account (users.id) a staff operation on a member reached: the staff log names them. */
  target?: number;
  /** The posts (`post:<id>`) and replies (`reply:<id>`) as the operation first read them, before it changed them. */
  readonly before = new Map<string, Row>();
  /** Whose live streams the change wakes (its NOTIFY's audience; a write that declares none: everyone). */
  readonly audience = new Audience();
  /** The posts whose audience is taken. */
  private readonly heard = new Set<number>();

  constructor(
    private readonly tx: Sql,
    private readonly user: UserRow,
    readonly change: ChangeNumber,
    private lastPostId: number,
  ) {}

  /** Runs a statement that stamps `seq = $n` on what it changes; the number is taken when it changed a row. */
  private async write(text: string, params: unknown[]): Promise<Row[]> {
    const rows = await this.tx.query(text, params);
    if (rows.length > 0) this.change.takeSeq();
    return rows;
  }

  /** Who may see post `id` now hears this change (once per post; `again`: after a move to another category). */
  private async hear(id: number, again = false): Promise<void> {
    if (this.heard.has(id) && !again) return;
    this.heard.add(id);
    await postAudience(this.tx, id, this.audience);
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
    if (row && !this.before.has(`post:${id}`)) this.before.set(`post:${id}`, row);
    if (!row) return undefined;
    // Its category's see list: who may see it is the one rule's (visibility.ts), private categories included.
    const seeGroups = await categorySeeGroups(this.tx, String(row.category));
    const post = toOpPost(row);
    return seeGroups ? { ...post, seeGroups } : post;
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
    await this.hear(post.id);
    if (post.submittedAt !== undefined) await this.updatePost(post.id, { submittedAt: post.submittedAt });
    if (post.poll) await this.updatePost(post.id, { poll: post.poll });
    if (post.attachments?.length) await this.updatePost(post.id, { attachments: post.attachments });
  }

  async updatePost(id: number, changes: PostChanges): Promise<void> {
    // As the operation read it (its category before a move).
    const earlier = this.posts.get(id);
    const params: unknown[] = [id, this.change.seq];
    const sets = Object.entries(changes).map(([field, value]) => {
      const { column, cast, json } = POST_COLUMNS[field as keyof PostChanges];
      if (field === 'poll') params.push(storedPoll(value as OpPost['poll']));
      else params.push(json && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null));
      return `${column} = $${params.length}${cast ? `::${cast}` : ''}`;
    });
    // Who saw it before a move to another category hears it too (their devices drop it).
    await this.hear(id);
    // Moved to another category: marked, with the category it leaves when it was approved there (its
    // members may hold it), so that who could see it there and may not where it goes gets its tombstone
    // (sync/changes.ts); a pending or rejected post was on no member's device but its author's. A post
    // moved before the categories were kept (moved, none kept) stays so: its tombstone goes to everyone
    // who may not see it. Every SET reads the row as it was.
    if (changes.category !== undefined) {
      params.push(changes.category);
      const to = `$${params.length}`;
      sets.push(
        `moved = moved OR category IS DISTINCT FROM ${to}`,
        `moved_from = CASE WHEN category IS NOT DISTINCT FROM ${to} THEN moved_from
          WHEN moved AND moved_from IS NULL THEN NULL
          WHEN status = 'approved' AND NOT category = ANY(coalesce(moved_from, ARRAY[]::text[]))
            THEN array_append(coalesce(moved_from, ARRAY[]::text[]), category)
          ELSE coalesce(moved_from, ARRAY[]::text[]) END`,
      );
    }
    const [row] = await this.write(`UPDATE posts SET ${[...sets, 'seq = $2'].join(', ')} WHERE id = $1 RETURNING *`, params);
    this.posts.set(id, row ?? null);
    if (changes.category !== undefined) await this.hear(id, true);
    // Its notifications come again in their recipients' pulls, each with a number of its own (a post
    // can have thousands): with a new title, the one they name (the list, the emails, the data
    // download), so no device keeps the title an edit replaced; and when the post may be seen again
    // (approved after a hide, moved back), for the devices that dropped them with its tombstone.
    const retitled = changes.title !== undefined;
    const moved = changes.category !== undefined && (!earlier || String(earlier.category) !== changes.category);
    const back = (changes.status === 'approved' && Boolean(earlier?.hidden_at)) || moved;
    if (retitled || back) {
      const rows = await this.tx.query(
        `UPDATE notifications y SET post_title = coalesce($2::text, y.post_title), seq = $3 + n.rank
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rank FROM notifications
           WHERE post_id = $1 AND ($4::boolean OR post_title IS DISTINCT FROM $2::text)) n
         WHERE y.id = n.id RETURNING y.user_id`,
        [id, retitled ? changes.title : null, this.change.last, back],
      );
      this.change.advance(rows.length);
      this.audience.add({ users: [...new Set(rows.map((one) => String(one.user_id)))] });
    }
    // Seen again: the members' own marks on it (levels, read positions, saved, flags), which their
    // devices dropped with its tombstone, come again with it (its audience hears the post's change).
    if (back) await this.bumpOwnMarks('SELECT NULL::text WHERE false', 'SELECT $1::bigint AS id', [id]);
  }

  async addLikes(id: number, count: number): Promise<void> {
    const [row] = await this.write('UPDATE posts SET likes = likes + $2, seq = $3 WHERE id = $1 RETURNING *', [id, count, this.change.seq]);
    this.posts.set(id, row ?? null);
    await this.hear(id);
  }

  async castBallot(actor: Actor, postId: number, choices: readonly number[]): Promise<void> {
    await this.tx.query(
      `INSERT INTO poll_votes (post_id, user_id, choices, at) VALUES ($1, $2, $3::text::jsonb, $4)
       ON CONFLICT (post_id, user_id) DO UPDATE SET choices = EXCLUDED.choices, at = EXCLUDED.at`,
      [postId, this.userId(actor), JSON.stringify(choices), Date.now()],
    );
    // The post takes the change: every device that holds it pulls the new counts.
    const [row] = await this.write('UPDATE posts SET seq = $2 WHERE id = $1 RETURNING *', [postId, this.change.seq]);
    this.posts.set(postId, row ?? null);
    await this.hear(postId);
  }

  async removePost(id: number, by: Actor): Promise<void> {
    await this.hear(id);
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
    if (row && !this.before.has(`reply:${id}`)) this.before.set(`reply:${id}`, row);
    return row ? toReply(row) : undefined;
  }

  async insertReply(reply: Reply): Promise<void> {
    const [row] = await this.write(INSERT_REPLY, insertReplyParams(reply, this.change.seq));
    // A reply of this id without its op: a sample reply's id, which only a forged op can carry.
    if (!row) throw new OpRefusal('conflict');
    this.replies.set(reply.id, row);
    await this.hear(Number(row.post_id));
    // INSERT_REPLY stays the statement of every schema version; the files come after (migration 16).
    if (reply.attachments?.length) {
      const [withFiles] = await this.write('UPDATE replies SET attachments = $2::text::jsonb WHERE id = $1 RETURNING *', [
        reply.id,
        JSON.stringify(reply.attachments),
      ]);
      this.replies.set(reply.id, withFiles!);
    }
  }

  async updateReply(id: string, changes: ReplyChanges): Promise<void> {
    const params: unknown[] = [id, this.change.seq];
    const sets = Object.entries(changes).map(([field, value]) => {
      params.push(value);
      return `${REPLY_COLUMNS[field as keyof ReplyChanges]} = $${params.length}`;
    });
    const [row] = await this.write(`UPDATE replies SET ${[...sets, 'seq = $2'].join(', ')} WHERE id = $1 RETURNING *`, params);
    this.replies.set(id, row ?? null);
    if (row) await this.hear(Number(row.post_id));
  }

  async recountComments(postId: number): Promise<void> {
    const [changed] = await this.write(
      `WITH counted AS (SELECT count(*)::int AS n FROM replies WHERE post_id = $1 AND state = 'visible')
       UPDATE posts p SET comments = counted.n, seq = $2 FROM counted WHERE p.id = $1 AND p.comments <> counted.n RETURNING p.*`,
      [postId, this.change.seq],
    );
    if (changed) this.posts.set(postId, changed);
    if (changed) await this.hear(postId);
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
    // A flag goes to the admins and its flagger.
    this.audience.add({ admins: true, users: [String(row.user_id)] });
    this.flagRow = { ...row, flagger: flag.flagger, flagger_email: flag.flaggerEmail };
  }

  /** Each flag settled gets a number of its own: a popular post can hold many. */
  async settleFlags(target: SettledFlags, state: Exclude<FlagState, 'open'>): Promise<void> {
    const which = target.replyId === 'all' ? '' : target.replyId === null ? ' AND reply_id IS NULL' : ' AND reply_id = $4::uuid';
    const params: unknown[] = [target.postId, state, this.change.last];
    if (target.replyId !== null && target.replyId !== 'all') params.push(target.replyId);
    const rows = await this.tx.query(
      `UPDATE flags f SET state = $2, seq = $3 + n.rank
       FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rank FROM flags WHERE post_id = $1 AND state = 'open'${which}) n
       WHERE f.id = n.id RETURNING f.id, f.user_id`,
      params,
    );
    this.change.advance(rows.length);
    if (rows.length > 0) this.audience.add({ admins: true, users: rows.map((row) => String(row.user_id)) });
  }

  async mentionable(ids: readonly string[], about: { postId: number; replyId: string | null }): Promise<string[]> {
    const rows = await this.tx.query<{ email: string }>(
      `SELECT u.email FROM users u WHERE u.member_id = ANY($1::text[]) AND u.closed_at IS NULL AND u.password_hash <> ''
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = u.id AND n.kind = 'mentioned' AND n.post_id = $2
           AND n.reply_id IS NOT DISTINCT FROM $3::uuid)`,
      [[...ids], about.postId, about.replyId],
    );
    return rows.map((row) => String(row.email));
  }

  /** The files as the server read them, named as the member uploaded them (or as the post names them); only the member's own uploads. */
  async attachments(actor: Actor, wanted: readonly Pick<Attachment, 'sha256' | 'name'>[]): Promise<Attachment[] | undefined> {
    const rows = await this.tx.query<Record<string, unknown>>(
      `SELECT a.sha256, a.mime, a.size, a.width, a.height, u.name FROM attachments a
       JOIN attachment_uploads u ON u.sha256 = a.sha256 AND u.user_id = $2 WHERE a.sha256 = ANY($1::text[])
       FOR SHARE OF a`,
      [wanted.map((file) => file.sha256), this.userId(actor)],
    );
    const known = new Map(rows.map((row) => [String(row.sha256), row]));
    if (wanted.some((file) => !known.has(file.sha256))) return undefined;
    return wanted.map((file) => toAttachment(known.get(file.sha256)!, file.name));
  }

  /**
   * One row per recipient who has an account one signs in to (a sample post's author, whose account
   * nobody signs in to, gets none) and may see the post. A reply told to a watcher (moderation.ts,
   * collapses) updates their unread `watching` notification of the post, when they have one: the
   * newest reply, its writer and time, one more in its count (whether it was emailed stays: they were
   * told of the conversation by email once while it is unread).
   */
  async notify(list: readonly NewNotification[], now: number): Promise<void> {
    if (list.length === 0) return;
    const actorId = `CASE WHEN e->>'actor' IS NOT NULL THEN coalesce((SELECT a.id FROM users a WHERE a.email = e->>'actorEmail'), $4::bigint) END`;
    const elements = `jsonb_array_elements($1::text::jsonb) e JOIN users u ON u.email = e->>'recipientEmail' AND u.password_hash <> ''`;
    const seen = recipientSeesCategorySql('u', "(e->>'postId')::bigint");
    let rows = list.map((notification) => ({ ...notification, id: randomUUID() }));
    const collapsing = rows.filter(collapses);
    if (collapsing.length > 0) {
      const updated = await this.write(
        `UPDATE notifications y SET reply_id = (e->>'replyId')::uuid, actor = e->>'actor', actor_id = ${actorId},
           post_title = e->>'postTitle', created_at = $2::bigint, count = y.count + 1, seq = $3::bigint
         FROM ${elements}
         WHERE y.user_id = u.id AND y.kind = 'watching' AND y.post_id = (e->>'postId')::bigint AND y.read_at IS NULL
           AND y.reply_id IS NOT NULL AND ${seen} RETURNING y.user_id, u.email`,
        [JSON.stringify(collapsing), now, this.change.seq, this.user.id],
      );
      this.audience.add({ users: updated.map((row) => String(row.user_id)) });
      const done = new Set(updated.map((row) => String(row.email)));
      rows = rows.filter((row) => !collapses(row) || !done.has(row.recipientEmail));
      if (rows.length === 0) return;
    }
    const made = await this.write(
      `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, actor, actor_id, post_title, reason, created_at, read_at, seq)
       SELECT (e->>'id')::uuid, u.id, e->>'kind', (e->>'postId')::bigint, (e->>'replyId')::uuid, e->>'actor',
         ${actorId}, e->>'postTitle', e->>'reason', $2::bigint, NULL, $3::bigint
       FROM ${elements} WHERE ${seen} RETURNING user_id`,
      [JSON.stringify(rows), now, this.change.seq, this.user.id],
    );
    this.audience.add({ users: made.map((row) => String(row.user_id)) });
  }

  /** The levels on the post's targets of its watchers, or of the members `who` names, who may sign in (OpStore.postFollowers). */
  async postFollowers(post: FollowedPost, who: 'watchers' | readonly string[]): Promise<MemberLevel[]> {
    const targets = targetsOf(post);
    const on = (f: string) =>
      `((${f}.kind = 'post' AND ${f}.target = $1) OR (${f}.kind = 'category' AND ${f}.target = $2) OR (${f}.kind = 'tag' AND ${f}.target = ANY($3::text[])))`;
    // The watchers are found through follows_watching (level <> 'normal', said so for the planner).
    const members =
      who === 'watchers'
        ? `f.user_id IN (SELECT w.user_id FROM follows w WHERE w.level <> 'normal' AND w.level = 'watching' AND ${on('w')})`
        : 'u.email = ANY($4::text[])';
    const rows = await this.tx.query(
      `SELECT u.email, f.kind, f.target, f.level FROM follows f JOIN users u ON u.id = f.user_id
       WHERE ${on('f')} AND ${members} AND u.closed_at IS NULL AND u.password_hash <> ''`,
      [targets.post, targets.category, targets.tags, ...(who === 'watchers' ? [] : [[...who]])],
    );
    return rows.map((row) => ({
      email: String(row.email),
      kind: row.kind as FollowKind,
      target: String(row.target),
      level: row.level as FollowLevel,
    }));
  }

  /** Each notification read gets a number of its own ("Mark all as read" can reach hundreds). */
  async readNotifications(actor: Actor, ids: readonly string[], at: number): Promise<void> {
    const rows = await this.tx.query(
      `UPDATE notifications y SET read_at = $2, seq = $3 + n.rank
       FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rank FROM notifications
         WHERE user_id = $1 AND read_at IS NULL AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($4::text::jsonb))) n
       WHERE y.id = n.id RETURNING y.id`,
      [this.userId(actor), at, this.change.last, JSON.stringify(ids)],
    );
    this.change.advance(rows.length);
    this.audience.add({ users: [this.userId(actor)] });
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
    this.audience.add({ users: [this.userId(actor)] });
  }

  async setTheme(actor: Actor, theme: Theme): Promise<void> {
    await this.write('UPDATE users SET theme = $2, prefs_seq = $3 WHERE id = $1 RETURNING id', [
      this.userId(actor),
      theme,
      this.change.seq,
    ]);
    this.audience.add({ users: [this.userId(actor)] });
  }

  async followLevel(actor: Actor, kind: FollowKind, target: string): Promise<FollowLevel | undefined> {
    const [row] = await this.tx.query('SELECT level FROM follows WHERE user_id = $1 AND kind = $2 AND target = $3', [
      this.userId(actor),
      kind,
      target,
    ]);
    return row ? (String(row.level) as FollowLevel) : undefined;
  }

  async topicFollows(actor: Actor): Promise<number> {
    const [row] = await this.tx.query(
      `SELECT count(*)::int AS n FROM follows WHERE user_id = $1 AND kind IN ('category', 'tag') AND level <> 'normal'`,
      [this.userId(actor)],
    );
    return Number(row?.n ?? 0);
  }

  /** The level, with a change number only when it changed (setting the same level again is no change). */
  async setFollow(actor: Actor, kind: FollowKind, target: string, level: FollowLevel, at: number): Promise<void> {
    await this.write(
      `INSERT INTO follows (user_id, kind, target, level, at, seq) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, kind, target) DO UPDATE SET level = EXCLUDED.level, at = EXCLUDED.at, seq = EXCLUDED.seq
       WHERE follows.level <> EXCLUDED.level RETURNING target`,
      [this.userId(actor), kind, target, level, at, this.change.seq],
    );
    this.audience.add({ users: [this.userId(actor)] });
  }

  async readPosition(actor: Actor, postId: number): Promise<number | undefined> {
    const [row] = await this.tx.query('SELECT read_to FROM post_reads WHERE user_id = $1 AND post_id = $2', [this.userId(actor), postId]);
    return row ? Number(row.read_to) : undefined;
  }

  /** GREATEST in one statement: two devices' positions never move it back, and one that does not move it takes no number. */
  async advanceRead(actor: Actor, postId: number, readTo: number, at: number): Promise<void> {
    await this.write(
      `INSERT INTO post_reads (user_id, post_id, read_to, at, seq) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, post_id) DO UPDATE SET read_to = EXCLUDED.read_to, at = EXCLUDED.at, seq = EXCLUDED.seq
       WHERE post_reads.read_to < EXCLUDED.read_to RETURNING post_id`,
      [this.userId(actor), postId, readTo, at, this.change.seq],
    );
    this.audience.add({ users: [this.userId(actor)] });
  }

  async autoWatch(actor: Actor): Promise<boolean> {
    const [row] = await this.tx.query('SELECT auto_watch FROM users WHERE id = $1', [this.userId(actor)]);
    return row ? row.auto_watch !== false : true;
  }

  async setAutoWatch(actor: Actor, on: boolean): Promise<void> {
    await this.write('UPDATE users SET auto_watch = $2, prefs_seq = $3 WHERE id = $1 RETURNING id', [
      this.userId(actor),
      on,
      this.change.seq,
    ]);
    this.audience.add({ users: [this.userId(actor)] });
  }

  /**
   * The name on the account, and as the author of each of the member's posts and replies whose name
   * differs, each given the change number so every device (of any protocol version) pulls it. Their
   * flags take it too (an admin's device shows the flagger's name). A deleted post keeps its number
   * (its row is never pulled again) but takes the name.
   */
  async isSilenced(actor: Actor): Promise<boolean> {
    const [row] = await this.tx.query('SELECT silenced, silenced_until FROM users WHERE id = $1', [this.userId(actor)]);
    const until = row?.silenced_until;
    return isSilencedAt(row && { silenced: row.silenced === true, silencedUntil: until === null ? null : Number(until) }, Date.now());
  }

  async memberToModerate(id: string): Promise<ModeratedMember | undefined> {
    const [row] = await this.tx.query('SELECT id, role, closed_at FROM users WHERE member_id = $1', [id]);
    if (!row) return undefined;
    this.target = Number(row.id);
    return { role: row.role === 'admin' ? 'admin' : 'user', closed: row.closed_at !== null };
  }

  /**
   * A suspension (its reason) ends the member's sessions on every instance (endSessions); a lifted
   * one leaves them ended. A silence (or its end) reaches the member's devices in their preferences
   * (prefs_seq), so they say so and stop offering to write.
   */
  async moderateMember(id: string, changes: MemberModeration): Promise<void> {
    const [row] = await this.tx.query('SELECT id FROM users WHERE member_id = $1', [id]);
    if (!row) return;
    const userId = Number(row.id);
    if (changes.suspendedUntil !== undefined) {
      await this.tx.query('UPDATE users SET suspended_until = $2, suspend_reason = $3 WHERE id = $1', [
        userId,
        changes.suspendedUntil,
        changes.suspendReason ?? null,
      ]);
      if (changes.suspendedUntil !== null) await endSessions(this.tx, userId, 'suspended');
    }
    if (changes.silenced !== undefined) {
      await this.write(
        'UPDATE users SET silenced = $2, prefs_seq = $3, silence_reason = $4, silenced_until = $5 WHERE id = $1 RETURNING id',
        [
          userId,
          changes.silenced,
          this.change.seq,
          changes.silenced ? (changes.silenceReason ?? null) : null,
          changes.silenced ? (changes.silencedUntil ?? null) : null,
        ],
      );
      this.audience.add({ users: [userId] });
    }
  }

  /** The open flags on the member's posts (their own flags) and replies, each with a change number of its own. */
  async settleFlagsOfMember(id: string, state: Exclude<FlagState, 'open'>): Promise<void> {
    const [row] = await this.tx.query('SELECT email FROM users WHERE member_id = $1', [id]);
    if (!row) return;
    const rows = await this.tx.query(
      `UPDATE flags f SET state = $3, seq = $1 + n.rank
       FROM (SELECT f2.id, row_number() OVER (ORDER BY f2.created_at, f2.id) AS rank FROM flags f2
         LEFT JOIN replies r ON r.id = f2.reply_id
         WHERE f2.state = 'open' AND ((f2.reply_id IS NULL AND f2.post_id IN (SELECT id FROM posts WHERE author_email = $2))
           OR r.author_email = $2)) n
       WHERE f.id = n.id RETURNING f.id, f.user_id`,
      [this.change.last, String(row.email), state],
    );
    this.change.advance(rows.length);
    if (rows.length > 0) this.audience.add({ admins: true, users: rows.map((flag) => String(flag.user_id)) });
  }

  /**
   * Delete spammer: every post of the member leaves the forum as a deletion does (deleted_posts), every
   * reply of theirs is deleted, the posts they replied to are counted again, their account is closed (silenced too) and their sessions end. Every row a
   * change number of its own: a spammer's thousands of posts never make one page larger than a pull's limit.
   */
  async removeMemberContent(id: string, by: Actor): Promise<void> {
    const [row] = await this.tx.query('SELECT id, email FROM users WHERE member_id = $1', [id]);
    if (!row) return;
    const userId = Number(row.id);
    const email = String(row.email);
    const now = Date.now();
    this.audience.all();
    const numbered = async (text: string, params: unknown[]) => {
      const rows = await this.tx.query(text, [this.change.last, ...params]);
      this.change.advance(rows.length);
      return rows;
    };
    const replies = await numbered(
      `UPDATE replies x SET state = 'deleted', content = '', seq = $1 + n.rank
       FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rank FROM replies WHERE author_email = $2 AND state <> 'deleted') n
       WHERE x.id = n.id RETURNING x.post_id`,
      [email],
    );
    await numbered(
      `WITH gone AS (DELETE FROM posts WHERE author_email = $2 RETURNING *),
       ranked AS (SELECT g.*, row_number() OVER (ORDER BY g.id) AS rank FROM gone g)
       INSERT INTO deleted_posts
       SELECT (jsonb_populate_record(NULL::deleted_posts,
         to_jsonb(ranked) - 'rank' || jsonb_build_object('seq', $1 + ranked.rank, 'deleted_at', $3::bigint, 'deleted_by', $4::bigint))).*
       FROM ranked RETURNING id`,
      [email, now, this.userId(by)],
    );
    // The posts they replied to that are still there: their count of visible replies.
    const touched = [...new Set(replies.map((reply) => Number(reply.post_id)))];
    if (touched.length > 0) {
      await numbered(
        `UPDATE posts p SET comments = c.n, seq = $1 + c.rank
         FROM (SELECT p2.id, (SELECT count(*)::int FROM replies r WHERE r.post_id = p2.id AND r.state = 'visible') AS n,
           row_number() OVER (ORDER BY p2.id) AS rank FROM posts p2 WHERE p2.id = ANY($2::bigint[])) c
         WHERE p.id = c.id RETURNING p.id`,
        [touched],
      );
    }
    await this.tx.query('UPDATE users SET closed_at = $2, silenced = true WHERE id = $1', [userId, now]);
    await endSessions(this.tx, userId, 'closed');
    this.target = userId;
  }

  async nameTaken(actor: Actor, name: string): Promise<boolean> {
    return nameTaken(this.tx, name, this.userId(actor));
  }

  /**
   * The account's new name, its key, and one change number for it (prefs_seq: the member's own
   * devices; name_seq: every device, as a `members` row). Posts, replies and flags are named from
   * the account whenever they are read (members/authors.ts), so none of them changes.
   */
  async rename(actor: Actor, name: string): Promise<void> {
    await this.write('UPDATE users SET name = $2, name_key = $3, prefs_seq = $4, name_seq = $4 WHERE id = $1 RETURNING id', [
      this.userId(actor),
      name,
      nameKey(name),
      this.change.seq,
    ]);
    // Every device names the member anew.
    this.audience.all();
  }

  /** A group's name for the staff log (the group an operation reached). */
  subjectName?: string;

  async group(id: string): Promise<Group | undefined> {
    const [row] = await this.tx.query('SELECT id, name, description, created_at, updated_at FROM groups WHERE id = $1', [id]);
    if (!row) return undefined;
    this.subjectName = String(row.name);
    return {
      id: String(row.id),
      name: String(row.name),
      description: String(row.description),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }

  async groupNameTaken(name: string, except: string | null): Promise<boolean> {
    const rows = await this.tx.query('SELECT 1 FROM groups WHERE name_key = $1 AND id IS DISTINCT FROM $2', [groupNameKey(name), except]);
    return rows.length > 0;
  }

  async saveGroup(group: Group): Promise<void> {
    await this.write(
      `INSERT INTO groups (id, name, name_key, description, created_at, updated_at, seq) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, name_key = EXCLUDED.name_key, description = EXCLUDED.description,
         updated_at = EXCLUDED.updated_at, seq = EXCLUDED.seq RETURNING id`,
      [group.id, group.name, groupNameKey(group.name), group.description, group.createdAt, group.updatedAt, this.change.seq],
    );
    this.subjectName = group.name;
    this.audience.add({ admins: true, groups: [group.id] });
  }

  /**
   * A member taken out keeps their row (in_group false), so their devices hear it; nothing changes when
   * they were not in it. A membership made here is an admin's (source NULL); the groups claim marks its
   * own afterwards (db/groups/claimed-groups.ts).
   */
  /**
   * An admin's Add to group or Remove from group, or (`byClaim`) the organisation's groups claim's
   * (groups/claimed-groups.ts). An admin's removal is marked (source 'admin'): the claim never puts
   * the member back in; only an admin's Add does.
   */
  async setGroupMember(groupId: string, memberId: string, member: boolean, byClaim = false): Promise<void> {
    const [user] = await this.tx.query('SELECT id FROM users WHERE member_id = $1', [memberId]);
    if (!user) return;
    this.target = Number(user.id);
    // The admins and the member (whose streams read their groups again); the group's other members hold its posts already.
    this.audience.add({ admins: true, regrouped: [String(user.id)] });
    if (member) {
      const added = await this.write(
        `INSERT INTO group_members (group_id, user_id, in_group, at, seq) VALUES ($1, $2, true, $3, $4)
         ON CONFLICT (group_id, user_id) DO UPDATE SET in_group = true, at = EXCLUDED.at, seq = EXCLUDED.seq, source = NULL
         WHERE NOT group_members.in_group RETURNING user_id`,
        [groupId, user.id, Date.now(), this.change.seq],
      );
      // The posts (and their replies) of the categories the group opens take this change, so the
      // member's next pull brings what they may now see (a pull reads by change number: these rows'
      // older numbers are below their cursor). Devices that held them already find them not newer.
      if (added.length === 0) return;
      const opened = `SELECT p.id FROM posts p JOIN categories c ON c.id = p.category WHERE $1 = ANY(c.see_groups)`;
      await this.write(`UPDATE posts SET seq = $2 WHERE id IN (${opened}) RETURNING id`, [groupId, this.change.seq]);
      await this.write(`UPDATE replies SET seq = $2 WHERE post_id IN (${opened}) RETURNING id`, [groupId, this.change.seq]);
      // Their notifications about those posts too: a pull left them out while they were not in it.
      await this.write(`UPDATE notifications SET seq = $2 WHERE user_id = $3 AND post_id IN (${opened}) RETURNING id`, [
        groupId,
        this.change.seq,
        user.id,
      ]);
      // And their own marks there (levels, read positions, saved posts), left out of pulls as well.
      await this.bumpOwnMarks(`SELECT c.id FROM categories c WHERE $1 = ANY(c.see_groups)`, opened, [groupId], user.id);
      return;
    }
    await this.write(
      `UPDATE group_members SET in_group = false, at = $3, seq = $4, source = CASE WHEN $5::boolean THEN source ELSE 'admin' END
       WHERE group_id = $1 AND user_id = $2 AND in_group RETURNING user_id`,
      [groupId, user.id, Date.now(), this.change.seq, byClaim],
    );
  }

  /**
   * The follow levels, read positions, saved posts and flags of the categories `categories` (SQL of their ids)
   * and the posts `posts` (SQL of their ids) take this change (of account `userId` alone, or everyone's),
   * so the pull that brings those posts back to who may see them again brings these with them (the
   * pull leaves them out while the category is not seen: server/db/sync/changes.ts).
   */
  private async bumpOwnMarks(categories: string, posts: string, params: unknown[], userId?: unknown): Promise<void> {
    const seq = params.length + 1;
    const whose = userId === undefined ? '' : ` AND user_id = $${seq + 1}`;
    const values = userId === undefined ? [...params, this.change.seq] : [...params, this.change.seq, userId];
    // One row back at most from each (it says whether the change number was taken): the rows can be
    // many, and who hears is the posts' audience (or `userId`), told by the caller. The lookups by post
    // and by target are indexed (migration 37), so opening a category to everyone scans none of them.
    const once = (update: string) => this.write(`WITH marked AS (${update} RETURNING 1) SELECT 1 FROM marked LIMIT 1`, values);
    await once(
      `UPDATE follows SET seq = $${seq} WHERE ((kind = 'category' AND target IN (${categories}))
         OR (kind = 'post' AND target IN (SELECT id::text FROM (${posts}) o)))${whose}`,
    );
    await once(`UPDATE post_reads SET seq = $${seq} WHERE post_id IN (${posts})${whose}`);
    await once(`UPDATE saved_posts SET seq = $${seq} WHERE post_id IN (${posts})${whose}`);
    await once(`UPDATE flags SET seq = $${seq} WHERE post_id IN (${posts})${whose}`);
  }

  async category(id: string): Promise<Category | undefined> {
    const [row] = await this.tx.query('SELECT * FROM categories WHERE id = $1', [id]);
    if (!row) return undefined;
    this.subjectName = String(row.name);
    return toCategory(row);
  }

  async memberGroups(actor: Actor): Promise<string[]> {
    const rows = await this.tx.query('SELECT group_id FROM group_members WHERE user_id = $1 AND in_group', [this.userId(actor)]);
    return rows.map((row) => String(row.group_id));
  }

  async categoryNameTaken(name: string, except: string): Promise<boolean> {
    const rows = await this.tx.query('SELECT 1 FROM categories WHERE name_key = $1 AND id <> $2', [categoryNameKey(name), except]);
    return rows.length > 0;
  }

  async saveCategory(category: Category): Promise<void> {
    // Seen by more than before (to everyone, or a group it did not name): its posts, their replies and
    // the notifications about them take this change, so the newly allowed members' next pull brings
    // them (as addGroupMember's do).
    // One statement, before the category's own row changes: it reads the see list it had.
    await this.write(
      `WITH widened AS (SELECT 1 FROM categories c WHERE c.id = $1 AND c.see_groups IS NOT NULL
         AND ($2::text[] IS NULL OR NOT ($2::text[] <@ c.see_groups))),
       moved AS (UPDATE posts SET seq = $3 WHERE category = $1 AND EXISTS (SELECT 1 FROM widened) RETURNING id),
       replies_moved AS (UPDATE replies SET seq = $3 WHERE post_id IN (SELECT id FROM moved) RETURNING id),
       notes_moved AS (UPDATE notifications SET seq = $3 WHERE post_id IN (SELECT id FROM moved) RETURNING id)
       SELECT id FROM moved`,
      [category.id, category.see, this.change.seq],
    );
    // Everyone's own marks there too: levels on it and on its posts, read positions, saved posts.
    const [widened] = await this.tx.query(
      `SELECT 1 FROM categories c WHERE c.id = $1 AND c.see_groups IS NOT NULL AND ($2::text[] IS NULL OR NOT ($2::text[] <@ c.see_groups))`,
      [category.id, category.see],
    );
    if (widened) await this.bumpOwnMarks('SELECT $1::text', 'SELECT id FROM posts WHERE category = $1', [category.id]);
    await this.write(
      `INSERT INTO categories (id, name, name_key, description, position, archived, see_groups, post_groups, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8::text[], $9)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, name_key = EXCLUDED.name_key, description = EXCLUDED.description,
         position = EXCLUDED.position, archived = EXCLUDED.archived, see_groups = EXCLUDED.see_groups,
         post_groups = EXCLUDED.post_groups, seq = EXCLUDED.seq RETURNING id`,
      [
        category.id,
        category.name,
        categoryNameKey(category.name),
        category.description,
        category.position,
        category.archived,
        category.see,
        category.post,
        this.change.seq,
      ],
    );
    this.subjectName = category.name;
    // Rare: everyone, who gain or lose it among them.
    this.audience.all();
  }
  // ---- Messages (issue 61) ----

  async memberId(actor: Actor): Promise<string> {
    const [row] = await this.tx.query('SELECT member_id FROM users WHERE id = $1', [this.userId(actor)]);
    return String(row?.member_id ?? '');
  }

  /** One of the member's posts approved, or one of their replies visible on an approved post. */
  async mayMessage(actor: Actor): Promise<boolean> {
    const [row] = await this.tx.query<{ open: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM posts WHERE author_email = $1 AND status = 'approved')
         OR EXISTS (SELECT 1 FROM replies r JOIN posts p ON p.id = r.post_id
           WHERE r.author_email = $1 AND r.state = 'visible' AND p.status = 'approved') AS open`,
      [actor.email],
    );
    return row?.open === true;
  }

  /**
   * The members of these public ids that the To field could have offered (findableMember, as the
   * mention search reads it: a confirmed, open account, not suspended now); any other id is nobody.
   */
  async recipients(ids: readonly string[]): Promise<({ id: string; name: string } | undefined)[]> {
    const rows = await this.tx.query<{ member_id: string; name: string }>(
      `SELECT member_id, name FROM users WHERE member_id = ANY($1::text[]) AND ${findableMember('$2')}`,
      [[...ids], Date.now()],
    );
    const found = new Map(rows.map((row) => [String(row.member_id), String(row.name)]));
    return ids.map((id) => (found.has(id) ? { id, name: found.get(id)! } : undefined));
  }

  async conversation(id: string): Promise<Conversation | undefined> {
    const [row] = await this.tx.query(
      `SELECT c.id, c.subject, a.member_id AS author_id, c.created_at, c.updated_at FROM conversations c
       JOIN users a ON a.id = c.author_id WHERE c.id = $1`,
      [id],
    );
    if (!row) return undefined;
    const members = await this.tx.query(
      `SELECT u.member_id, u.name, m.left_at FROM conversation_members m JOIN users u ON u.id = m.user_id
       WHERE m.conversation_id = $1 ORDER BY m.position`,
      [id],
    );
    return {
      id: String(row.id),
      subject: String(row.subject),
      authorId: String(row.author_id),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      participants: members.map((member) => ({ id: String(member.member_id), name: String(member.name), left: member.left_at !== null })),
    };
  }

  async insertConversation(conversation: Conversation): Promise<void> {
    await this.write(
      'INSERT INTO conversations (id, subject, author_id, created_at, updated_at, seq) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [conversation.id, conversation.subject, this.user.id, conversation.createdAt, conversation.updatedAt, this.change.seq],
    );
    await this.write(
      `INSERT INTO conversation_members (conversation_id, user_id, position, seq)
       SELECT $1, u.id, p.position, $3 FROM unnest($2::text[]) WITH ORDINALITY AS p(member_id, position)
       JOIN users u ON u.member_id = p.member_id RETURNING user_id`,
      [conversation.id, conversation.participants.map((participant) => participant.id), this.change.seq],
    );
    await conversationAudience(this.tx, conversation.id, this.audience);
  }

  async insertMessage(message: Message): Promise<void> {
    const [row] = await this.write(
      `INSERT INTO messages (id, conversation_id, user_id, body, created_at, seq, attachments) VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        message.id,
        message.conversationId,
        this.user.id,
        message.body,
        message.createdAt,
        this.change.seq,
        message.attachments ? JSON.stringify(message.attachments) : null,
      ],
    );
    if (!row) throw new OpRefusal('conflict');
    await this.write('UPDATE conversations SET updated_at = greatest(updated_at, $2), seq = $3 WHERE id = $1 RETURNING id', [
      message.conversationId,
      message.createdAt,
      this.change.seq,
    ]);
    await conversationAudience(this.tx, message.conversationId, this.audience);
  }

  async readConversation(actor: Actor, id: string, at: number): Promise<void> {
    await this.write(
      'UPDATE conversation_members SET last_read_at = $3, seq = $4 WHERE conversation_id = $1 AND user_id = $2 RETURNING user_id',
      [id, this.userId(actor), at, this.change.seq],
    );
    this.audience.add({ users: [this.userId(actor)] });
  }

  /** The member's own row says when they left (their devices drop it); the conversation's change tells the others. */
  async leaveConversation(actor: Actor, id: string, at: number): Promise<void> {
    await this.write(
      'UPDATE conversation_members SET left_at = $3, seq = $4 WHERE conversation_id = $1 AND user_id = $2 AND left_at IS NULL RETURNING user_id',
      [id, this.userId(actor), at, this.change.seq],
    );
    await this.write('UPDATE conversations SET seq = $2 WHERE id = $1 RETURNING id', [id, this.change.seq]);
    this.audience.add({ users: [this.userId(actor)] });
    await conversationAudience(this.tx, id, this.audience);
  }

  async message(id: string): Promise<Message | undefined> {
    const [row] = await this.tx.query(
      `SELECT y.id, y.conversation_id, a.member_id AS author_id, a.name AS author, y.body, y.created_at, y.attachments
       FROM messages y JOIN users a ON a.id = y.user_id WHERE y.id = $1`,
      [id],
    );
    if (!row) return undefined;
    return {
      id: String(row.id),
      conversationId: String(row.conversation_id),
      authorId: String(row.author_id),
      author: String(row.author),
      body: String(row.body),
      createdAt: Number(row.created_at),
      ...messageAttachments(row.attachments),
    };
  }

  /**
   * The flag (the admins' Flags read it by route, not by pull: it takes no change number of its own),
   * with its conversation's last message's change number: what the admins may read ends there.
   */
  async flagMessage(actor: Actor, message: Message, flag: { id: string; reason: string; text: string; at: number }): Promise<boolean> {
    const [row] = await this.tx.query(
      `INSERT INTO message_flags (id, message_id, conversation_id, user_id, reason, text, created_at, upto_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT max(seq) FROM messages WHERE conversation_id = $3))
       ON CONFLICT (message_id, user_id) DO NOTHING RETURNING id`,
      [flag.id, message.id, message.conversationId, this.userId(actor), flag.reason, flag.text, flag.at],
    );
    return row !== undefined;
  }
  /** Dismisses the message's open flags; the staff log names its author and its conversation's subject. */
  async dismissMessageFlags(messageId: string): Promise<boolean> {
    const [row] = await this.tx.query(
      `SELECT y.user_id, c.subject FROM messages y JOIN conversations c ON c.id = y.conversation_id WHERE y.id = $1`,
      [messageId],
    );
    if (!row) return false;
    this.target = Number(row.user_id);
    this.subjectName = String(row.subject);
    await this.tx.query(`UPDATE message_flags SET state = 'dismissed' WHERE message_id = $1 AND state = 'open'`, [messageId]);
    return true;
  }
}

/** A categories row as the operations read it. */
export function toCategory(row: Row): Category {
  const groups = (value: unknown) => (Array.isArray(value) ? value.map(String) : null);
  return {
    id: String(row.id),
    name: String(row.name),
    description: String(row.description),
    position: Number(row.position),
    archived: row.archived === true,
    see: groups(row.see_groups),
    post: groups(row.post_groups),
  };
}
