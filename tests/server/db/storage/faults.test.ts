// Faults under a running server: its PostgreSQL restarted (a push waits through a short restart and
// is applied once; past the wait, clear 503 JSON, then recovery without a server restart), and the
// network cut in the middle of a pull (the client resumes from its cursor and applies nothing
// twice). Real HTTP on 127.0.0.1, a PostgreSQL of this file's own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RELAXED_LIMITS } from '../../support/limits';
import { buildApp, type AppOptions } from '../../../../server/app';
import { openPostgres } from '../../../../server/db/storage/postgres';
import { startUp } from '../../../../server/db/storage/startup';
import { startPostgres } from '../../../../scripts/postgres.mjs';
import type { FastifyInstance } from 'fastify';
import { HttpClient } from '../../support/http';
import { signUpToken, TEST_PASSWORD } from '../../support/client';
import { signUpAndFollowLink } from '../../support/mail-folder';
import type { Database } from '../../../../server/db/storage/adapter';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../support/databases';
import { openEventStream } from '../../support/sse';
import postgresClient from 'postgres';

describe('faults on PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let app: FastifyInstance;
  let base: string;
  let db: Database;
  /** Create Account, then the emailed link (read from the queue of emails): signed in. */
  const join = (client: HttpClient, email: string, name: string) =>
    signUpAndFollowLink(client.send.bind(client), (address) => signUpToken(db, address), { email, password: TEST_PASSWORD, name });

  /** A server on this file's PostgreSQL that waits `reachableWithinMs` for it (lib/reachable.ts). */
  const serve = (options: Partial<AppOptions>) => buildApp({ db, adminEmail: ADMIN_EMAIL, memberLimits: RELAXED_LIMITS, ...options });

  beforeAll(async () => {
    postgres = await startPostgres();
    db = await openPostgres(postgres.url);
    await startUp(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => {} });
    // It waits one second for the database, so the 503 past the wait comes soon.
    app = await serve({ reachableWithinMs: 1_000 });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    postgres?.stop();
  });

  it('a push that meets PostgreSQL restarting waits inside the server and is applied once (issue 64)', async () => {
    // The server waits the default 10 s; its database counts the statements that met it away.
    let refused = 0;
    const counting: Database = {
      ...db,
      query: <T>(text: string, params?: unknown[]) =>
        db.query<T>(text, params).catch((error: unknown) => {
          refused += 1;
          throw error;
        }),
    };
    const patient = await serve({ db: counting });
    const patientBase = await patient.listen({ host: '127.0.0.1', port: 0 });
    try {
      const member = new HttpClient(patientBase);
      await join(member, 'waiter@example.com', 'Waiter');
      const id = randomUUID();
      postgres.pause();
      let pushing: Promise<Awaited<ReturnType<HttpClient['send']>>>;
      try {
        pushing = member.send('POST', '/api/ops', {
          ops: [{ id, type: 'create', post: { title: 'Waited', content: 'x', category: 'Trends' } }],
        });
        // The push met the database away (its session's lookup was refused) before it comes back.
        await vi.waitFor(() => expect(refused).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
      } finally {
        postgres.resume();
      }
      const answer = await pushing;
      expect(answer.status).toBe(200);
      expect(answer.body.results[0]).toMatchObject({ id, status: 'applied' });
      const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM posts WHERE title = 'Waited'");
      expect(n).toBe(1);
    } finally {
      await patient.close();
    }
  }, 120_000);

  it('answers 503 with a readable JSON error while PostgreSQL stays down past the wait, and recovers without a restart', async () => {
    const member = new HttpClient(base);
    await join(member, 'restart@example.com', 'Restart');
    const before = await member.send('POST', '/api/ops', {
      ops: [{ id: randomUUID(), type: 'create', post: { title: 'Before', content: 'x', category: 'Trends' } }],
    });
    expect(before.body.results[0].status).toBe('applied');
    postgres.pause();
    try {
      for (const answer of [
        await member.send('GET', '/api/changes?after=0'),
        await member.send('POST', '/api/ops', {
          ops: [{ id: randomUUID(), type: 'create', post: { title: 'During', content: 'x', category: 'Trends' } }],
        }),
      ]) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.body).toEqual({
          error: { code: 'database_unavailable', message: 'The database cannot be reached right now. Please try again in a moment.' },
        });
      }
    } finally {
      postgres.resume();
    }
    await vi.waitFor(async () => expect((await member.send('GET', '/api/changes?after=0')).status).toBe(200), {
      timeout: 30_000,
      interval: 200,
    });
    const after = await member.send('POST', '/api/ops', {
      ops: [{ id: randomUUID(), type: 'create', post: { title: 'After', content: 'x', category: 'Trends' } }],
    });
    expect(after.body.results[0].status).toBe('applied');
    const titles = (await member.send('GET', '/api/changes?after=0')).body.posts.map((post: { title: string }) => post.title);
    expect(titles.filter((title: string) => ['Before', 'During', 'After'].includes(title))).toEqual(['Before', 'After']);
  }, 120_000);

  it('its listening session ended from outside: listened to again at once, told so, and NOTIFYs heard again (issue 64)', async () => {
    const heard: string[] = [];
    let relistened = 0;
    const stop = await db.listen(
      'ie_test_relisten',
      (payload) => heard.push(payload),
      () => (relistened += 1),
    );
    const other = postgresClient(postgres.url, { max: 1, onnotice: () => {} });
    try {
      await other`SELECT pg_notify('ie_test_relisten', 'before')`;
      await vi.waitFor(() => expect(heard).toEqual(['before']), { timeout: 10_000, interval: 20 });
      expect(relistened).toBe(0);
      // The one session that listens (this server's channels and the test's share it).
      const ended =
        await other`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'listen %' AND pid <> pg_backend_pid()`;
      expect(ended.length).toBe(1);
      await vi.waitFor(() => expect(relistened).toBe(1), { timeout: 10_000, interval: 20 });
      await other`SELECT pg_notify('ie_test_relisten', 'after')`;
      await vi.waitFor(() => expect(heard).toEqual(['before', 'after']), { timeout: 10_000, interval: 20 });
    } finally {
      await stop();
      await other.end();
    }
  }, 60_000);

  it('a session revoked while the listening was away: its live stream ends once the listening is back, the others stay (issue 64)', async () => {
    const leaving = new HttpClient(base);
    const staying = new HttpClient(base);
    await join(leaving, 'leaving@example.com', 'Leaving');
    await join(staying, 'staying@example.com', 'Staying');
    const gone = await openEventStream(base, leaving.cookie!);
    const kept = await openEventStream(base, staying.cookie!);
    const other = postgresClient(postgres.url, { max: 1, onnotice: () => {} });
    try {
      // Revoked by a statement whose NOTIFY nobody heard (as when it came while the session was away).
      await other`UPDATE sessions SET ended_reason = 'revoked' WHERE user_id = (SELECT id FROM users WHERE email = 'leaving@example.com')`;
      const ended =
        await other`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'listen %' AND pid <> pg_backend_pid()`;
      expect(ended.length).toBe(1);
      await gone.ended();
      const before = (await staying.send('GET', '/api/changes?after=0')).body.cursor as number;
      const heard = kept.nextCursor((cursor) => cursor > before);
      const answer = await staying.send('POST', '/api/ops', {
        ops: [{ id: randomUUID(), type: 'create', post: { title: 'Still told', content: 'x', category: 'Trends' } }],
      });
      expect(answer.body.results[0].status).toBe('applied');
      expect(await heard).toBeGreaterThan(before);
    } finally {
      gone.close();
      kept.close();
      await other.end();
    }
  }, 60_000);

  it('PostgreSQL away 12 s while devices pull: within 5 s of its return a push is applied and the live stream hears it (issue 64)', async () => {
    const member = new HttpClient(base);
    await join(member, 'listener@example.com', 'Listener');
    const stream = await openEventStream(base, member.cookie!);
    try {
      const before = (await member.send('GET', '/api/changes?after=0')).body.cursor as number;
      postgres.pause();
      try {
        // The outage's length is the fault itself: long enough that a client's own back-off
        // (postgres.js: 10–20 s between attempts after seven failures) would still be waiting.
        const away = Date.now() + 12_000;
        while (Date.now() < away) {
          expect((await member.send('GET', `/api/changes?after=${before}`)).status).toBe(503);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        postgres.resume();
      }
      const back = Date.now();
      const heard = stream.nextCursor((cursor) => cursor > before);
      let applied = 0;
      while (applied === 0 && Date.now() - back < 30_000) {
        const answer = await member.send('POST', '/api/ops', {
          ops: [{ id: randomUUID(), type: 'create', post: { title: 'Back again', content: 'x', category: 'Trends' } }],
        });
        if (answer.status === 200 && answer.body.results[0].status === 'applied') applied = Date.now() - back;
      }
      // Bounded, so a stream never told fails with the figures rather than the case's timeout.
      let bound: ReturnType<typeof setTimeout> | undefined;
      const told = await Promise.race([
        heard.then(() => Date.now() - back),
        new Promise<number>((resolve) => (bound = setTimeout(() => resolve(Infinity), Math.max(0, back + 30_000 - Date.now())))),
      ]).finally(() => clearTimeout(bound));
      expect(
        { applied: applied > 0 && applied <= 5_000, told: told <= 5_000 },
        `applied after ${applied} ms, told after ${told} ms`,
      ).toEqual({
        applied: true,
        told: true,
      });
    } finally {
      stream.close();
    }
  }, 120_000);

  it('a pull cut off mid-way resumes from the last cursor the client kept, with nothing applied twice', async () => {
    const writer = new HttpClient(base);
    await join(writer, 'puller@example.com', 'Puller');
    const ops = Array.from({ length: 25 }, (_, index) => ({
      id: randomUUID(),
      type: 'create',
      post: { title: `Pull ${index}`, content: 'x', category: 'Trends' },
    }));
    await writer.send('POST', '/api/ops', { ops });
    // A client-side pull loop: pages of 4; the connection fails on the third page.
    const applied = new Map<number, number>();
    let cursor = 0;
    let requests = 0;
    const page = async () => {
      requests += 1;
      if (requests === 3) throw new Error('network cut');
      const answer = await writer.send('GET', `/api/changes?after=${cursor}&limit=4`);
      for (const post of answer.body.posts as { id: number }[]) applied.set(post.id, (applied.get(post.id) ?? 0) + 1);
      cursor = answer.body.cursor; // kept only once the page is applied
      return answer.body.more as boolean;
    };
    let more = true;
    let failures = 0;
    while (more && requests < 50) {
      try {
        more = await page();
      } catch {
        failures += 1;
      }
    }
    expect(failures).toBe(1);
    expect(more).toBe(false);
    expect(applied.size).toBeGreaterThanOrEqual(27);
    expect([...applied.values()].every((times) => times === 1)).toBe(true);
  }, 180_000);
});
