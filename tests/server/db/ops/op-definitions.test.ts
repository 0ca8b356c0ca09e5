/// <reference types="vite/client" />
// Every operation's cases (tests/ops/<type>.cases.ts) on the server's store, on PGlite and on
// PostgreSQL: the world of tests/ops/world.ts set up in SQL before each case, the operation applied
// through the server's one path (db/ops/apply.ts), then applied again: a retry answers `duplicate`
// and changes nothing, not even the change number. Likes also run through the definition itself
// (applyByDefinition) besides their group commit, which must agree with it. The device runs the
// same cases on IndexedDB (tests/unit/shared/ops/definitions.test.ts).
import { withAuthors } from '../../../../server/db/members/authors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionOf } from '../../../../src/shared/ops/registry';
import { maySee } from '../../../../src/shared/post-rules';
import { PROTOCOL_VERSION, type Op } from '../../../../src/shared/protocol';
import { applyByDefinition, applyOp } from '../../../../server/db/ops/apply';
import { createUser, findUser } from '../../../../server/db/members/accounts';
import { INSERT_POST, insertParams } from '../../../../server/db/posts/post-rows';
import { INSERT_REPLY, insertReplyParams } from '../../../../server/db/replies/reply-rows';
import { changeHead, pullChanges } from '../../../../server/db/sync/changes';
import type { Database } from '../../../../server/db/storage/adapter';
import {
  ADMIN,
  EMAIL,
  FLAGS,
  flagLabel,
  GROUPS,
  groupLabel,
  categoryLabel,
  MEMBER_ID,
  MEMBERS,
  NOTIFICATIONS,
  notificationLabel,
  POLL_OPTIONS,
  POLL_QUESTION,
  POLLS,
  POSTS,
  REPLIES,
  SAVED,
  SILENCED,
  WORLD_CATEGORIES,
  CONVERSATION,
  CONVERSATION_MEMBERS,
  CONVERSATION_SUBJECT,
  FIRST_MESSAGE,
  FIRST_MESSAGE_BODY,
  changedTables,
  followLabel,
  readLabel,
  whoOf,
  type OpCase,
  type Reader,
  type Table,
  watched,
} from '../../../ops/world';
import { BACKENDS, freshDatabase } from '../../support/databases';
import { toWirePoll, withPolls } from '../../../../server/db/posts/poll-rows';
import { toCategory } from '../../../../server/db/ops/sql-store';
import { DEFAULT_CATEGORIES } from '../../../../src/shared/categories';
import { nameKey } from '../../../../src/shared/names';

const tables = import.meta.glob<{ default: OpCase[] }>('../../../ops/*.cases.ts', { eager: true });
const CASES = Object.values(tables).flatMap((table) => table.default);

const nameOf = (email: string) => MEMBERS.find((member) => member.email === email)!.name;

/** Empties what operations write, then sets up the world under one change number. */
async function seed(db: Database): Promise<void> {
  for (const table of [
    'message_flags',
    'messages',
    'conversation_members',
    'conversations',
    'staff_log',
    'ops',
    'group_members',
    'groups',
    'post_views',
    'flags',
    'notifications',
    'saved_posts',
    'follows',
    'post_reads',
    'poll_votes',
    'replies',
    'posts',
    'deleted_posts',
    'sessions',
  ]) {
    await db.query(`DELETE FROM ${table}`);
  }
  await db.query('DELETE FROM users WHERE email <> $1', [ADMIN]);
  await db.query(`UPDATE users SET name = 'Admin', theme = 'system' WHERE email = $1`, [ADMIN]);
  for (const { email, name, role } of MEMBERS.filter((member) => member.email !== ADMIN)) {
    await createUser(db, { email, name, role, passwordHash: 'not-for-signing-in' });
  }
  // The world's members confirmed their addresses (a recipient must be one the To field could offer).
  for (const { email } of MEMBERS)
    await db.query('UPDATE users SET member_id = $2, email_verified_at = 1 WHERE email = $1', [email, MEMBER_ID[email]]);
  const [head] = await db.query<{ seq: unknown }>('UPDATE change_head SET seq = seq + 1 RETURNING seq');
  const seq = Number(head!.seq);
  for (const post of POSTS) {
    const comments = REPLIES.filter((reply) => reply.postId === post.id && reply.state === 'visible').length;
    const row = {
      id: post.id,
      title: post.title,
      content: 'Some findings.',
      category: 'Trends',
      author: nameOf(post.author),
      authorEmail: post.author,
      authorRole: 'user',
      likes: post.likes,
      comments,
      views: post.views,
      date: '1 hour ago',
      isTopContributor: false,
      tags: [],
      status: post.status,
    };
    await db.query(INSERT_POST, insertParams(row, seq));
    await db.query('UPDATE posts SET reason = $2 WHERE id = $1', [post.id, post.reason]);
  }
  for (const [index, reply] of REPLIES.entries()) {
    const row = {
      ...reply,
      author: nameOf(reply.author),
      authorEmail: reply.author,
      authorRole: 'user',
      quoteId: null,
      createdAt: index + 1,
      editedAt: null,
    };
    await db.query(INSERT_REPLY, insertReplyParams(row, seq));
  }
  for (const flag of FLAGS) {
    await db.query(
      `INSERT INTO flags (id, user_id, post_id, reply_id, reason, text, created_at, state, seq)
       SELECT $1, id, $3, $4, 'spam', '', 1, $5, $6 FROM users WHERE email = $2`,
      [flag.id, flag.by, flag.postId, flag.replyId, flag.state, seq],
    );
  }
  for (const note of NOTIFICATIONS) {
    await db.query(
      `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, actor, post_title, reason, created_at, read_at, seq)
       SELECT $1, id, 'approved', $3, NULL, NULL, 'A post', NULL, 1, NULL, $4 FROM users WHERE email = $2`,
      [note.id, note.to, note.postId, seq],
    );
  }
  for (const world of POLLS) {
    const poll = { question: POLL_QUESTION, options: POLL_OPTIONS, multiple: world.multiple, closesAt: null, closedAt: world.closedAt };
    await db.query('UPDATE posts SET poll = $2::text::jsonb WHERE id = $1', [world.postId, JSON.stringify(poll)]);
    for (const ballot of world.ballots) {
      await db.query(
        'INSERT INTO poll_votes (post_id, user_id, choices, at) SELECT $2, id, $3::text::jsonb, 1 FROM users WHERE email = $1',
        [ballot.email, world.postId, JSON.stringify(ballot.choices)],
      );
    }
  }
  for (const saved of SAVED) {
    await db.query('INSERT INTO saved_posts (user_id, post_id, saved, at, seq) SELECT id, $2, true, 1, $3 FROM users WHERE email = $1', [
      saved.email,
      saved.postId,
      seq,
    ]);
  }
  for (const { email, reason } of SILENCED) {
    await db.query('UPDATE users SET silenced = true, silence_reason = $2 WHERE email = $1', [email, reason]);
  }
  // The spec's six as a new server has them, and no other.
  await db.query('DELETE FROM categories WHERE NOT (id = ANY($1::text[]))', [DEFAULT_CATEGORIES.map((category) => category.id)]);
  for (const category of DEFAULT_CATEGORIES) {
    await db.query(
      `UPDATE categories SET name = id, name_key = $2, description = '', position = $3, archived = false, see_groups = NULL,
         post_groups = NULL, seq = 0 WHERE id = $1`,
      [category.id, nameKey(category.name), category.position],
    );
  }
  for (const category of WORLD_CATEGORIES) {
    await db.query(
      `INSERT INTO categories (id, name, name_key, description, position, archived, see_groups, post_groups, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8::text[], $9)`,
      [
        category.id,
        category.name,
        nameKey(category.name),
        category.description,
        category.position,
        category.archived,
        category.see,
        category.post,
        seq,
      ],
    );
  }
  for (const group of GROUPS) {
    await db.query(
      `INSERT INTO groups (id, name, name_key, description, created_at, updated_at, seq) VALUES ($1, $2, lower($2), $3, 1, 1, $4)`,
      [group.id, group.name, group.description, seq],
    );
    for (const email of group.members) {
      await db.query(
        'INSERT INTO group_members (group_id, user_id, in_group, at, seq) SELECT $1, id, true, 1, $3 FROM users WHERE email = $2',
        [group.id, email, seq],
      );
    }
  }
  await db.query(
    `INSERT INTO conversations (id, subject, author_id, created_at, updated_at, seq) SELECT $1, $2, id, 1, 1, $4 FROM users WHERE email = $3`,
    [CONVERSATION, CONVERSATION_SUBJECT, CONVERSATION_MEMBERS[0]!.email, seq],
  );
  for (const [index, member] of CONVERSATION_MEMBERS.entries()) {
    await db.query(
      `INSERT INTO conversation_members (conversation_id, user_id, position, last_read_at, seq) SELECT $1, id, $3, $4, $5 FROM users WHERE email = $2`,
      [CONVERSATION, member.email, index + 1, member.read ? 1 : null, seq],
    );
  }
  await db.query(
    `INSERT INTO messages (id, conversation_id, user_id, body, created_at, seq) SELECT $1, $2, id, $4, 1, $5 FROM users WHERE email = $3`,
    [FIRST_MESSAGE, CONVERSATION, CONVERSATION_MEMBERS[0]!.email, FIRST_MESSAGE_BODY, seq],
  );
}

function readerOf(db: Database): Reader {
  return {
    async poll(postId, email) {
      const rows = await withPolls(db, await db.query('SELECT * FROM posts WHERE id = $1', [postId]), email);
      const poll = rows[0] ? toWirePoll(rows[0]) : null;
      if (!poll) return null;
      return { counts: poll.counts, voters: poll.voters, mine: poll.ballots[email] ?? null, closed: poll.closedAt !== null };
    },
    async post(id) {
      const [stored] = await db.query('SELECT * FROM posts WHERE id = $1', [id]);
      if (!stored) return undefined;
      // The author as every viewer is shown them: by their account as it is now.
      const [row] = await withAuthors(db, [stored]);
      const { status, likes, views, comments, title, author } = row!;
      return {
        status: status as never,
        likes: Number(likes),
        views: Number(views),
        comments: Number(comments),
        reason: (row.reason as string | null) ?? null,
        title: String(title),
        author: String(author),
      };
    },
    async postsOf(email) {
      const rows = await db.query('SELECT title, status FROM posts WHERE author_email = $1', [email]);
      return rows.map((row) => `${row.title} ${row.status}`).sort();
    },
    async reply(id) {
      const [row] = await db.query('SELECT state, content FROM replies WHERE id = $1', [id]);
      return row && { state: row.state as never, content: String(row.content) };
    },
    async replyAuthor(id) {
      const [stored] = await db.query('SELECT * FROM replies WHERE id = $1', [id]);
      if (!stored) return undefined;
      // As every viewer is shown it: by the account as it is now.
      const [row] = await withAuthors(db, [stored]);
      return String(row!.author);
    },
    async flags(postId) {
      const rows = await db.query(
        'SELECT u.email, f.state, f.reply_id FROM flags f JOIN users u ON u.id = f.user_id WHERE f.post_id = $1',
        [postId],
      );
      return rows.map((row) => flagLabel(String(row.email), String(row.state), (row.reply_id as string | null) ?? null)).sort();
    },
    async notifications(email) {
      const rows = await db.query(
        'SELECT n.id, n.kind, n.read_at FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = $1',
        [email],
      );
      return rows.map((row) => notificationLabel(String(row.id), String(row.kind), row.read_at)).sort();
    },
    async notificationTitles(email) {
      const rows = await db.query('SELECT n.post_title FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = $1', [email]);
      return rows.map((row) => String(row.post_title)).sort();
    },
    async saved(email, postId) {
      const [row] = await db.query(
        'SELECT s.saved FROM saved_posts s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.post_id = $2',
        [email, postId],
      );
      return row ? row.saved === true : undefined;
    },
    async preferences(email) {
      const [row] = await db.query('SELECT theme, name FROM users WHERE email = $1', [email]);
      return { theme: row!.theme as never, name: String(row!.name) };
    },
    async silence(email) {
      const [row] = await db.query('SELECT silenced, silence_reason, silenced_until FROM users WHERE email = $1', [email]);
      const until = row!.silenced_until;
      return {
        silenced: row!.silenced === true,
        reason: (row!.silence_reason as string | null) ?? null,
        until: until === null ? null : Number(until),
      };
    },
    async groups() {
      const groups = await db.query('SELECT id, name, description FROM groups');
      const members = await db.query('SELECT m.group_id, u.name FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.in_group');
      const names = (id: unknown) => members.filter((member) => member.group_id === id).map((member) => String(member.name));
      return groups.map((group) => groupLabel(String(group.name), String(group.description), names(group.id))).sort();
    },
    async category(id) {
      const [row] = await db.query('SELECT * FROM categories WHERE id = $1', [id]);
      return row && categoryLabel(toCategory(row));
    },
    async following(email) {
      const titles = new Map((await db.query('SELECT id, title FROM posts')).map((row) => [Number(row.id), String(row.title)]));
      const rows = await db.query('SELECT f.kind, f.target, f.level FROM follows f JOIN users u ON u.id = f.user_id WHERE u.email = $1', [
        email,
      ]);
      return rows.map((row) => followLabel(String(row.kind), String(row.target), String(row.level), (id) => titles.get(id))).sort();
    },
    async readIn(email) {
      const rows = await db.query(
        'SELECT p.title, r.read_to FROM post_reads r JOIN users u ON u.id = r.user_id LEFT JOIN posts p ON p.id = r.post_id WHERE u.email = $1',
        [email],
      );
      return rows.map((row) => readLabel((row.title as string | null) ?? undefined, Number(row.read_to))).sort();
    },
    async autoWatch(email) {
      const [row] = await db.query('SELECT auto_watch FROM users WHERE email = $1', [email]);
      return row!.auto_watch === true;
    },
    async conversation(id, email) {
      const [mine] = await db.query(
        `SELECT c.subject, m.last_read_at, m.left_at FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id
         JOIN users u ON u.id = m.user_id WHERE c.id = $1 AND u.email = $2`,
        [id, email],
      );
      if (!mine) return undefined;
      const names = await db.query(
        'SELECT u.name FROM conversation_members m JOIN users u ON u.id = m.user_id WHERE m.conversation_id = $1 ORDER BY m.position',
        [id],
      );
      return {
        subject: String(mine.subject),
        participants: names.map((row) => String(row.name)),
        read: mine.last_read_at !== null,
        left: mine.left_at !== null,
      };
    },
    async messages(conversationId) {
      const rows = await db.query(
        'SELECT u.name, y.body FROM messages y JOIN users u ON u.id = y.user_id WHERE y.conversation_id = $1 ORDER BY y.created_at, y.seq',
        [conversationId],
      );
      return rows.map((row) => `${row.name}: ${row.body}`);
    },
    async messageFlags(messageId) {
      const rows = await db.query(
        'SELECT u.email, f.reason FROM message_flags f JOIN users u ON u.id = f.user_id WHERE f.message_id = $1 ORDER BY u.email',
        [messageId],
      );
      return rows.map((row) => `${whoOf(String(row.email))} ${row.reason}`);
    },
    async suspension(email) {
      const [row] = await db.query('SELECT suspended_until, suspend_reason FROM users WHERE email = $1', [email]);
      if (row!.suspended_until === null) return null;
      return { until: Number(row!.suspended_until), reason: (row!.suspend_reason as string | null) ?? null };
    },
  };
}

/** Every table a case may read, as the server holds it (a post's poll and ballots apart from the post). */
async function tablesNow(db: Database): Promise<Record<Table, unknown>> {
  // Change numbers are the pull's bookkeeping: a table changed when something besides them did.
  const rows = async (sql: string) =>
    (await db.query(sql)).map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !column.endsWith('seq'))));
  const posts = await rows('SELECT * FROM posts ORDER BY id');
  return {
    posts: [
      posts.map(({ poll: _poll, ...post }) => post),
      await rows('SELECT * FROM deleted_posts ORDER BY id'),
      await rows('SELECT * FROM post_views ORDER BY user_id, post_id'),
    ],
    polls: [posts.map((post) => [post.id, post.poll]), await rows('SELECT * FROM poll_votes ORDER BY 1, 2')],
    replies: await rows('SELECT * FROM replies ORDER BY id'),
    flags: await rows('SELECT * FROM flags ORDER BY id'),
    notifications: await rows('SELECT * FROM notifications ORDER BY id'),
    saved: await rows('SELECT * FROM saved_posts ORDER BY user_id, post_id'),
    members: await rows('SELECT * FROM users ORDER BY id'),
    groups: [await rows('SELECT * FROM groups ORDER BY id'), await rows('SELECT * FROM group_members ORDER BY group_id, user_id')],
    categories: await rows('SELECT * FROM categories ORDER BY id'),
    follows: await rows('SELECT * FROM follows ORDER BY user_id, kind, target'),
    reads: await rows('SELECT * FROM post_reads ORDER BY user_id, post_id'),
    messages: [
      await rows('SELECT * FROM conversations ORDER BY id'),
      await rows('SELECT * FROM conversation_members ORDER BY conversation_id, user_id'),
      await rows('SELECT * FROM messages ORDER BY id'),
      await rows('SELECT * FROM message_flags ORDER BY id'),
    ],
  };
}

const opOf = (one: OpCase): Op => ({ ...one.payload, id: one.id ?? crypto.randomUUID(), type: one.type }) as Op;

describe.each(BACKENDS)('every operation, defined once, on the server (%s)', (backend) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(backend);
  });
  afterAll(async () => {
    await db?.close();
  });

  for (const one of CASES) {
    it(`${one.type}: ${one.name}; a retry changes nothing`, async () => {
      await seed(db);
      const user = (await findUser(db, EMAIL[one.who]))!;
      const op = opOf(one);
      const before = await tablesNow(db);
      const { result } = await applyOp(db, user, op, PROTOCOL_VERSION);
      if (typeof one.expect === 'string') {
        expect(result).toMatchObject({ status: 'refused', code: one.expect });
        expect(changedTables(before, await tablesNow(db)), 'a refusal changes nothing').toEqual([]);
        return;
      }
      expect(result.status).toBe('applied');
      const looked = watched(readerOf(db));
      expect(await one.expect.look(looked.reader)).toEqual(one.expect.is);
      // Every table the operation changed is one the case reads (so the device must agree on it).
      expect(
        changedTables(before, await tablesNow(db)).filter((table) => !looked.read.has(table)),
        'changed, and read by no case',
      ).toEqual([]);
      const read = readerOf(db);
      const head = await changeHead(db);
      expect((await applyOp(db, user, op, PROTOCOL_VERSION)).result.status).toBe('duplicate');
      expect(await one.expect.look(read)).toEqual(one.expect.is);
      expect(await changeHead(db)).toBe(head);
    });
  }

  // The group commit of likes is the one set-based path: through the definition, each like case ends the same.
  for (const one of CASES.filter((candidate) => candidate.type === 'like')) {
    it(`like by its definition, without the group commit: ${one.name}`, async () => {
      await seed(db);
      const user = (await findUser(db, EMAIL[one.who]))!;
      const op = opOf(one);
      const { result } = await applyByDefinition(db, user, op, definitionOf('like').parse(op as never));
      if (typeof one.expect === 'string') expect(result).toMatchObject({ status: 'refused', code: one.expect });
      else expect(await one.expect.look(readerOf(db))).toEqual(one.expect.is);
    });
  }

  it('the pull shows each member what maySee lets them see (the rule in SQL is the rule of post-rules.ts)', async () => {
    await seed(db);
    for (const member of MEMBERS) {
      const user = (await findUser(db, member.email))!;
      const page = await pullChanges(db, user, 0, 1000, PROTOCOL_VERSION);
      const pulled = page.posts.map((post) => post.id).filter((id) => POSTS.some((post) => post.id === id));
      const seen = POSTS.filter((post) => maySee({ status: post.status, authorEmail: post.author }, user)).map((post) => post.id);
      expect(pulled.sort(), member.email).toEqual(seen.sort());
    }
  });
});
