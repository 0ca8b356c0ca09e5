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
