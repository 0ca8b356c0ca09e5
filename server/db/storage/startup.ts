// Start-up work, done once per start under one advisory lock: migrations, the sample posts and their
// replies (only when the database has never been seeded and holds no post) and the admin account.
import { randomUUID } from 'node:crypto';
import { samplePosts } from '../../../src/shared/sample-posts';
import { sampleReplies } from '../../../src/shared/sample-replies';
import { generatePassword, hashPassword } from '../../lib/passwords';
import { createUser, fillMembers, findUser } from '../members/accounts';
import type { Database, Sql } from './adapter';
import { migrate, STARTUP_LOCK } from './migrations';
import { INSERT_POST, insertParams } from '../posts/post-rows';
import { INSERT_REPLY, insertReplyParams } from '../replies/reply-rows';

export interface StartupOptions {
  adminEmail: string;
  adminPassword?: string;
  log: (message: string) => void;
}

export interface StartupReport {
  migrations: number;
  seeded: boolean;
  /** The generated admin password, when this start created the admin without ADMIN_PASSWORD. */
  generatedPassword?: string;
}

async function seed(tx: Sql): Promise<boolean> {
  // A forum that ever held a post (even one since deleted) is not empty.
  const [head] = await tx.query(
    'SELECT seeded, (SELECT count(*) FROM posts) + (SELECT count(*) FROM deleted_posts) AS posts FROM change_head FOR UPDATE',
  );
  if (head!.seeded === true || Number(head!.posts) > 0) return false;
  const now = Date.now();
  const posts = samplePosts(now);
  const replies = sampleReplies(posts, randomUUID);
  // Each sample post and each of its replies a change number of its own (a pull's page never needs
  // to carry more rows than its limit for one change).
  for (const post of posts) {
    const [next] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
    await tx.query(INSERT_POST, insertParams(post, Number(next!.seq)));
    for (const reply of replies.filter((reply) => reply.postId === post.id)) {
      const [numbered] = await tx.query('UPDATE change_head SET seq = seq + 1 RETURNING seq');
      await tx.query(INSERT_REPLY, insertReplyParams(reply, Number(numbered!.seq)));
    }
  }
  await tx.query('UPDATE change_head SET seeded = true, last_post_id = GREATEST(last_post_id, $1)', [now]);
  return true;
}

/** Migrates, seeds and makes sure the admin account exists; safe to run from several instances at once. */
export async function startUp(db: Database, options: StartupOptions): Promise<StartupReport> {
  const report = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [STARTUP_LOCK]);
    const migrations = await migrate(tx);
    const seeded = await seed(tx);
    await fillMembers(tx);
    // The operator named the admin's address (ADMIN_EMAIL): it counts as confirmed.
    await tx.query('UPDATE users SET email_verified_at = $2 WHERE email = $1 AND email_verified_at IS NULL', [
      options.adminEmail,
      Date.now(),
    ]);
    if (await findUser(tx, options.adminEmail)) return { migrations, seeded };
    const password = options.adminPassword ?? generatePassword();
    await createUser(tx, { email: options.adminEmail, name: 'Admin', role: 'admin', passwordHash: await hashPassword(password) }, true);
    await tx.query('UPDATE users SET email_verified_at = $2 WHERE email = $1', [options.adminEmail, Date.now()]);
    return { migrations, seeded, ...(options.adminPassword ? {} : { generatedPassword: password }) };
  });
  // PGlite runs no autovacuum: fresh planner statistics at each start keep a pull's page an ordered
  // index scan (without them a first sync sorted every post for every page). PostgreSQL's autovacuum does this.
  if (db.kind === 'pglite') await db.query('ANALYZE');
  return report;
}
