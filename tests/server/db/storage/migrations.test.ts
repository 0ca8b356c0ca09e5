// Migrations from an empty database and re-run, start-up from two instances at once (the advisory
// lock), the sample posts created exactly once, and the admin account made from ADMIN_PASSWORD.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/storage/adapter';
import { migrate, MIGRATIONS } from '../../../../server/db/storage/migrations';
import { INSERT_POST, insertParams } from '../../../../server/db/posts/post-rows';
import { INSERT_REPLY, insertReplyParams } from '../../../../server/db/replies/reply-rows';
import { memberId } from '../../../../src/shared/members';
import { samplePosts } from '../../../../src/shared/sample-posts';
import { sampleReplies } from '../../../../src/shared/sample-replies';
import { openPostgres } from '../../../../server/db/storage/postgres';
import { startUp } from '../../../../server/db/storage/startup';
import { verifyPassword } from '../../../../server/lib/passwords';
import { ADMIN_EMAIL, BACKENDS, emptyDatabase, newPostgresDatabase } from '../../support/databases';

const quiet = { adminEmail: ADMIN_EMAIL, log: () => {} };
const count = async (db: Database, sql: string) => Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${sql}`))[0]!.n);

describe.each(BACKENDS)('start-up on %s', (backend) => {
  const open: Database[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });

  it('migrates an empty database, then a re-run changes nothing', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    const first = await startUp(db, { ...quiet, adminPassword: 'secret-one' });
    expect(first).toMatchObject({ migrations: MIGRATIONS.length, seeded: true });
    expect(first.generatedPassword).toBeUndefined();
    const second = await startUp(db, { ...quiet, adminPassword: 'ignored-now' });
    expect(second).toEqual({ migrations: 0, seeded: false });
    expect(await count(db, 'posts')).toBe(3);
    expect(await count(db, "posts WHERE status = 'approved'")).toBe(3);
    const [admin] = await db.query<{ password_hash: string; role: string }>('SELECT * FROM users WHERE email = $1', [ADMIN_EMAIL]);
    expect(admin!.role).toBe('admin');
    expect(await verifyPassword('secret-one', admin!.password_hash)).toBe(true);
  });

  it('creates the sample posts only once, even after they are all gone', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    await startUp(db, { ...quiet, adminPassword: 'pw' });
    await db.query('DELETE FROM replies');
    await db.query('DELETE FROM posts');
    expect((await startUp(db, { ...quiet, adminPassword: 'pw' })).seeded).toBe(false);
    expect(await count(db, 'posts')).toBe(0);
  });

  it('a forum whose posts were all deleted is not seeded again, even without its seeded mark', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    await startUp(db, { ...quiet, adminPassword: 'pw' });
    await db.query(
      `INSERT INTO deleted_posts SELECT (jsonb_populate_record(NULL::deleted_posts, to_jsonb(p) || '{"deleted_at": 0}')).* FROM posts p`,
    );
    await db.query('DELETE FROM posts');
    await db.query('UPDATE change_head SET seeded = false');
    expect((await startUp(db, { ...quiet, adminPassword: 'pw' })).seeded).toBe(false);
    expect(await count(db, 'posts')).toBe(0);
  });

  it('seeds each sample post with its replies (comments is the number of its visible replies), every row a change number of its own', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    await startUp(db, { ...quiet, adminPassword: 'pw' });
    const posts = await db.query<{ id: unknown; comments: unknown; seq: unknown }>('SELECT id, comments, seq FROM posts');
    for (const post of posts) {
      const replies = await db.query<{ seq: unknown; state: string }>('SELECT seq, state FROM replies WHERE post_id = $1', [post.id]);
      expect(replies.length).toBe(Number(post.comments));
      expect(replies.every((reply) => reply.state === 'visible' && Number(reply.seq) > Number(post.seq))).toBe(true);
    }
    expect(await count(db, 'replies')).toBe(5);
    const seqs = await db.query<{ seq: unknown }>('SELECT seq FROM posts UNION ALL SELECT seq FROM replies');
    expect(new Set(seqs.map((row) => Number(row.seq))).size).toBe(seqs.length);
    // The sample posts' authors have accounts nobody can sign in to: their names are taken, their pages have ids.
    const authors = await db.query<{ password_hash: string; member_id: string; name_key: string }>(
      `SELECT password_hash, member_id, name_key FROM users WHERE email IN (SELECT author_email FROM posts UNION SELECT author_email FROM replies)`,
    );
    expect(authors.length).toBeGreaterThan(0);
    for (const author of authors) {
      expect(author.password_hash).toBe('');
      expect(author.member_id).toMatch(/^[0-9a-f]{16}$/);
      expect(author.name_key).not.toBe('');
    }
  });

  it('migration 21 drops ie_like, a like rule nothing calls; the like batch stays', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    const likeFunctions = async () =>
      (
        await db.query<{ proname: string }>(`SELECT proname FROM pg_proc WHERE proname IN ('ie_like', 'ie_like_batch') ORDER BY proname`)
      ).map((row) => row.proname);
    // The database as a build of migration 20 left it.
    await db.transaction(async (tx) => {
      await migrate(tx, 20);
    });
    expect(await likeFunctions()).toEqual(['ie_like', 'ie_like_batch']);
    await db.transaction(async (tx) => {
      await migrate(tx);
    });
    expect(await likeFunctions()).toEqual(['ie_like_batch']);
  });

  it('migration 5 on a forum seeded before it: the sample posts keep their rows, comments becomes 0 under a new change number', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    // The database as a build of migration 4 left it: the sample posts seeded with their old comments.
    await db.transaction(async (tx) => {
      await migrate(tx, 4);
      for (const post of samplePosts(Date.now())) {
        const [next] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
        await tx.query(INSERT_POST, insertParams(post, Number(next!.seq)));
      }
      await tx.query('UPDATE change_head SET seeded = true');
    });
    expect(await count(db, 'posts WHERE comments > 0')).toBe(3);
    const before = Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq);
    expect(await startUp(db, { ...quiet, adminPassword: 'pw' })).toMatchObject({ migrations: MIGRATIONS.length - 4, seeded: false });
    expect(await count(db, 'replies')).toBe(0);
    expect(await count(db, 'posts WHERE comments = 0')).toBe(3);
    // One new change number for the posts whose count changed, so a device holding them pulls them again.
    const after = Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq);
    expect(after).toBe(before + 1);
    expect(await count(db, `posts WHERE seq = ${after}`)).toBe(3);
  });

  it('migration 6 on a forum with replies: posts and replies kept, the new columns at their defaults, a post with replies can be deleted', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    // The database as a build of migration 5 left it: the sample posts seeded with their replies.
    await db.transaction(async (tx) => {
      await migrate(tx, 5);
      const posts = samplePosts(Date.now());
      const replies = sampleReplies(posts, randomUUID);
      for (const post of posts) {
        const [next] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
        await tx.query(INSERT_POST, insertParams(post, Number(next!.seq)));
        for (const reply of replies.filter((one) => one.postId === post.id))
          await tx.query(INSERT_REPLY, insertReplyParams(reply, Number(next!.seq)));
      }
      await tx.query('UPDATE change_head SET seeded = true');
    });
    const replies = await count(db, 'replies');
    expect(replies).toBeGreaterThan(0);
    const foreignKeys = "pg_constraint WHERE contype = 'f' AND conrelid = 'replies'::regclass";
    expect(await count(db, foreignKeys)).toBe(1);
    const head = Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq);
    expect(await startUp(db, { ...quiet, adminPassword: 'pw' })).toMatchObject({ migrations: MIGRATIONS.length - 5, seeded: false });
    expect(await count(db, 'posts')).toBe(3);
    expect(await count(db, 'replies')).toBe(replies);
    expect(await count(db, 'posts WHERE edited_at IS NULL AND resubmitted = false AND previous IS NULL')).toBe(3);
    expect(await count(db, 'deleted_posts')).toBe(0);
    expect(await count(db, foreignKeys)).toBe(0);
    // Nothing to pull again: the migration gives no post a new change number.
    expect(Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq)).toBe(head);
    // A post with replies leaves `posts` (the replies stay): what a deletion does.
    const [withReplies] = await db.query<{ post_id: unknown }>('SELECT post_id FROM replies LIMIT 1');
    await db.query('DELETE FROM posts WHERE id = $1', [withReplies!.post_id]);
    expect(await count(db, 'replies')).toBe(replies);
  });

  it('migration 7 on a forum of migration 6: submitted_at from the Date.now() ids, flags once per item, likes counted per day', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    // The database as a build of migration 6 left it: the sample posts, one more with a small id, one deleted.
    const now = Date.now();
    await db.transaction(async (tx) => {
      await migrate(tx, 6);
      const posts = [...samplePosts(now), { ...samplePosts(now)[0]!, id: 42 }];
      for (const post of posts) {
        const [next] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
        await tx.query(INSERT_POST, insertParams(post, Number(next!.seq)));
      }
      await tx.query(
        `WITH gone AS (DELETE FROM posts WHERE id = $1 RETURNING *)
         INSERT INTO deleted_posts SELECT (jsonb_populate_record(NULL::deleted_posts, to_jsonb(gone) || '{"deleted_at": 0}')).* FROM gone`,
        [posts[1]!.id],
      );
      await tx.query('UPDATE change_head SET seeded = true');
    });
    const head = Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq);
    expect(await startUp(db, { ...quiet, adminPassword: 'pw' })).toMatchObject({ migrations: MIGRATIONS.length - 6, seeded: false });
    expect(await count(db, 'posts WHERE submitted_at = id AND reason IS NULL AND reviewed_at IS NULL')).toBe(2);
    expect(await count(db, 'posts WHERE id = 42 AND submitted_at IS NULL')).toBe(1);
    expect(await count(db, 'deleted_posts WHERE submitted_at = id')).toBe(1);
    // Nothing to pull again.
    expect(Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq)).toBe(head);
    // One flag per member and item: the post itself (no reply) counts as one item.
    const [admin] = await db.query<{ id: unknown }>('SELECT id FROM users');
    const flag = `INSERT INTO flags (id, user_id, post_id, reply_id, reason, text, created_at, state, seq)
      VALUES ($1, $2, 42, $3, 'spam', '', 0, 'open', 1)`;
    await db.query(flag, [randomUUID(), admin!.id, null]);
    await expect(db.query(flag, [randomUUID(), admin!.id, null])).rejects.toThrow();
    const reply = randomUUID();
    await db.query(flag, [randomUUID(), admin!.id, reply]);
    await expect(db.query(flag, [randomUUID(), admin!.id, reply])).rejects.toThrow();
    await expect(db.query(flag.replace("'open'", "'closed'"), [randomUUID(), admin!.id, randomUUID()])).rejects.toThrow();
    // like_days: increases counted on today's UTC day, one row per day.
    await db.query('UPDATE posts SET likes = likes + 2');
    await db.query('UPDATE posts SET likes = likes - 1');
    const days = await db.query<{ day: string; likes: unknown }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day, likes FROM like_days`);
    expect(days.map((day) => [day.day, Number(day.likes)])).toEqual([[new Date().toISOString().slice(0, 10), 6]]);
  });

  it('migration 8 on a forum of migration 7: accounts get a random member id and the default theme; nothing to pull again', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    // The database as a build of migration 7 left it: the sample posts and two accounts (one in capitals).
    await db.transaction(async (tx) => {
      await migrate(tx, 7);
      for (const post of samplePosts(Date.now())) {
        const [next] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
        await tx.query(INSERT_POST, insertParams(post, Number(next!.seq)));
      }
      await tx.query('UPDATE change_head SET seeded = true');
      for (const email of [ADMIN_EMAIL, 'Older.Member@Example.com']) {
        await tx.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Someone', 'user', 'x')`, [email]);
      }
    });
    const head = Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq);
    expect(await startUp(db, { ...quiet, adminPassword: 'pw' })).toMatchObject({ migrations: MIGRATIONS.length - 7, seeded: false });
    const users = await db.query<{ email: string; member_id: string; theme: string; prefs_seq: unknown }>(
      'SELECT email, member_id, theme, prefs_seq FROM users ORDER BY id',
    );
    expect(users.map((user) => [user.theme, Number(user.prefs_seq)])).toEqual(users.map(() => ['system', 0]));
    // Random ids (migration 10), never memberId of the email: that told who has an account.
    for (const user of users) {
      expect(user.member_id).toMatch(/^[0-9a-f]{16}$/);
      expect(user.member_id).not.toBe(memberId(user.email));
    }
    expect(new Set(users.map((user) => user.member_id)).size).toBe(users.length);
    expect(Number((await db.query<{ seq: unknown }>('SELECT seq FROM change_head'))[0]!.seq)).toBe(head);
    expect(await count(db, 'saved_posts')).toBe(0);
    // The theme is one of THEMES; the search index exists; a new account gets its member id at once.
    await expect(db.query(`UPDATE users SET theme = 'sepia'`)).rejects.toThrow();
    // Migration 12: every post's and reply's searched document stored and indexed without a pending list.
    expect(await count(db, `pg_indexes WHERE indexname = 'post_search_doc' AND indexdef LIKE '%fastupdate%off%'`)).toBe(1);
    expect(await count(db, `pg_indexes WHERE indexname = 'reply_search_doc'`)).toBe(1);
    expect(await count(db, 'post_search')).toBe(await count(db, 'posts'));
    expect(await count(db, 'reply_search')).toBe(await count(db, 'replies'));
    await startUp(db, { ...quiet, adminPassword: 'pw' });
    expect(await count(db, 'users WHERE member_id IS NULL')).toBe(0);
  });

  it('without ADMIN_PASSWORD generates a strong password once', async () => {
    const db = await emptyDatabase(backend);
    open.push(db);
    const report = await startUp(db, quiet);
    expect(report.generatedPassword).toMatch(/^[\w-]{24}$/);
    expect((await startUp(db, quiet)).generatedPassword).toBeUndefined();
  });
});

describe('two instances starting together on one PostgreSQL', () => {
  it('migrate and seed once under the advisory lock', async () => {
    const url = await newPostgresDatabase();
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openPostgres(url)));
    try {
      const reports = await Promise.all(dbs.map((db) => startUp(db, { ...quiet, adminPassword: 'pw' })));
      expect(reports.map((report) => report.migrations).sort()).toEqual([0, 0, 0, MIGRATIONS.length]);
      expect(reports.filter((report) => report.seeded)).toHaveLength(1);
      expect(await count(dbs[0]!, 'posts')).toBe(3);
      // The admin, and the sample posts' authors (accounts nobody signs in to), once each.
      expect(await count(dbs[0]!, `users WHERE password_hash <> ''`)).toBe(1);
      const authors = await count(dbs[0]!, 'users WHERE email IN (SELECT author_email FROM posts UNION SELECT author_email FROM replies)');
      expect(authors).toBeGreaterThan(0);
      expect(await count(dbs[0]!, 'users')).toBe(1 + authors);
    } finally {
      for (const db of dbs) await db.close();
    }
  });
});
