// Migrations from an empty database and re-run, start-up from two instances at once (the advisory
// lock), the sample posts created exactly once, and the admin account made from ADMIN_PASSWORD.
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/adapter';
import { MIGRATIONS } from '../../server/db/migrations';
import { openPostgres } from '../../server/db/postgres';
import { startUp } from '../../server/db/startup';
import { verifyPassword } from '../../server/lib/passwords';
import { ADMIN_EMAIL, BACKENDS, emptyDatabase, newPostgresDatabase } from './support/databases';

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
    await db.query('DELETE FROM posts');
    expect((await startUp(db, { ...quiet, adminPassword: 'pw' })).seeded).toBe(false);
    expect(await count(db, 'posts')).toBe(0);
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
      expect(await count(dbs[0]!, 'users')).toBe(1);
    } finally {
      for (const db of dbs) await db.close();
    }
  });
});
