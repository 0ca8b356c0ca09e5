// The embedded database off the HTTP thread (issue 39): PGlite runs in a worker thread, so the
// server's thread stays free while a long statement runs; foreground work (a like, a sign-in, the
// health check) goes before waiting background work (searches, pulls' pages); transactions,
// errors without parameters, NOTIFY and a clean close work as they did in the server's thread.
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseError, type Database } from '../../../../server/db/storage/adapter';
import { emptyDatabase } from '../../support/databases';
import { testServer } from '../../support/app';
import { signedIn } from '../../support/client';

/** A statement that keeps PGlite busy for a while (no sleep: real work, as a heavy search is). */
const LONG = 'SELECT count(*) AS n FROM generate_series(1, 1500000) g WHERE g % 7 = 3';
/**
 * A statement that holds the database for a while, but well inside readiness's 2 s bound even on a
 * loaded CI machine: readiness waits for the one statement running, never for those queued (a
 * CI run at load ~10 took LONG past 2 s and readiness answered 503).
 */
const HOLDING = 'SELECT count(*) AS n FROM generate_series(1, 300000) g WHERE g % 7 = 3';

let db: Database | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

describe('the embedded database in a worker thread', () => {
  it('keeps the server thread free while a long statement runs', async () => {
    db = await emptyDatabase('pglite');
    const started = performance.now();
    let statementDone = 0;
    const statement = db.query(LONG).then(() => (statementDone = performance.now() - started));
    // Timers on this thread keep firing while the statement runs in the worker.
    let turns = 0;
    while (statementDone === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      turns += 1;
    }
    await statement;
    // On the server's thread the statement would hold it: the first timer would fire only after it
    // (one turn). In the worker, the timers keep turning meanwhile.
    expect(turns).toBeGreaterThan(5);
  });

  it('runs a waiting foreground statement before waiting background ones', async () => {
    db = await emptyDatabase('pglite');
    const order: string[] = [];
    const first = db.background.query(LONG).then(() => order.push('background 1'));
    const second = db.background.query(LONG).then(() => order.push('background 2'));
    const third = db.transaction(async (tx) => tx.query(LONG), { background: true }).then(() => order.push('background 3'));
    const like = db.query('SELECT 1').then(() => order.push('foreground'));
    await Promise.all([first, second, third, like]);
    // The first may have started before the foreground statement came; the others wait for it.
    expect(order.indexOf('foreground')).toBeLessThan(order.indexOf('background 2'));
    expect(order.filter((name) => name !== 'foreground')).toEqual(['background 1', 'background 2', 'background 3']);
  });

  it('commits, rolls back, and reports an engine error without its parameters', async () => {
    db = await emptyDatabase('pglite');
    await db.query('CREATE TABLE t (id int PRIMARY KEY, secret text)');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (2, $1)', ['rolled back']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.query('SELECT id, secret FROM t ORDER BY id')).toEqual([{ id: 1, secret: 'kept' }]);
    const refused = await db.query('INSERT INTO t VALUES (1, $1)', ['hunter2-password-hash']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseError);
    expect((refused as DatabaseError).code).toBe('23505');
    expect((refused as DatabaseError).constraint).toBe('t_pkey');
    expect(JSON.stringify({ ...(refused as object), message: (refused as Error).message, stack: (refused as Error).stack })).not.toContain(
      'hunter2',
    );
  });

  it('delivers NOTIFY to listeners until they stop, and refuses work once closed', async () => {
    db = await emptyDatabase('pglite');
    const heard: string[] = [];
    const stop = await db.listen('news', (payload) => heard.push(payload));
    await db.query("SELECT pg_notify('news', 'one')");
    await expect.poll(() => heard).toEqual(['one']);
    await stop();
    await db.query("SELECT pg_notify('news', 'two')");
    await db.query('SELECT 1');
    expect(heard).toEqual(['one']);
    const closing = db;
    db = undefined;
    await closing.close();
    await expect(closing.query('SELECT 1')).rejects.toThrow('The embedded database is closed.');
  });
});

describe('the server over the embedded database in its thread', () => {
  it('answers readiness and a like while background statements hold the database, and readiness 503 once it is gone', async () => {
    const server = await testServer('pglite');
    try {
      const member = await signedIn(server.app, 'ana@example.com');
      const [post] = await server.db.query<{ id: string }>("SELECT id FROM posts WHERE status = 'approved' ORDER BY id LIMIT 1");
      // Eight long background statements queued (each one takes the database for a while).
      const started = performance.now();
      let busy = 0;
      const background = Promise.all(Array.from({ length: 8 }, () => server.db.background.query(HOLDING))).then(
        () => (busy = performance.now() - started),
      );
      const health = await server.app.inject({ method: 'GET', url: '/api/ready' });
      const liked = await member.push({ id: crypto.randomUUID(), type: 'like', postId: Number(post!.id) });
      const foreground = performance.now() - started;
      await background;
      expect(health.statusCode).toBe(200);
      expect(liked.body.results[0].status).toBe('applied');
      // Readiness's query and the like went ahead of the statements still waiting.
      expect(foreground).toBeLessThan(busy);
      await server.db.close();
      // The process still answers (liveness), and says it cannot serve (readiness).
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const gone = await server.app.inject({ method: 'GET', url: '/api/ready' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toMatchObject({ error: { code: 'database_unavailable' } });
    } finally {
      await server.app.close();
      await server.db.close();
    }
  });
});
