// The live stream: it announces the head on connect and after every change, sends heartbeats,
// and two instances on one PostgreSQL hear each other's changes through LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '../../support/limits';
import { buildApp } from '../../../../server/app';
import { openPostgres } from '../../../../server/db/storage/postgres';
import { startUp } from '../../../../server/db/storage/startup';
import { Client, createOp, registerDatabase } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS, newPostgresDatabase } from '../../support/databases';
import { listen, testServer, type TestServer } from '../../support/app';
import { openEventStream } from '../../support/sse';

describe.each(BACKENDS)('the live stream on %s', (backend) => {
  let server: TestServer;
  let baseUrl: string;
  let member: Client;

  beforeAll(async () => {
    server = await testServer(backend, { heartbeatMs: 200 });
    baseUrl = await listen(server);
    member = new Client(server.app);
    await member.join('streamer@example.com');
  });
  afterAll(() => server.close());

  it('announces the head on connect and the new cursor after a push, with heartbeats', async () => {
    const stream = await openEventStream(baseUrl, member.cookie!);
    const start = await stream.nextCursor(() => true);
    const pushed = await member.push(createOp('Live'));
    expect(pushed.body.cursor).toBeGreaterThan(start);
    expect(await stream.nextCursor((cursor) => cursor >= pushed.body.cursor)).toBe(pushed.body.cursor);
    await stream.heartbeat();
    stream.close();
  });

  it('is for signed-in sessions only', async () => {
    const response = await fetch(`${baseUrl}/api/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'signed_out', message: 'Please sign in again.' } });
  });
});

describe('two server instances on one PostgreSQL', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  beforeAll(async () => {
    const url = await newPostgresDatabase();
    for (let index = 0; index < 2; index += 1) {
      const db = await openPostgres(url);
      await startUp(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => {} });
      const app = await buildApp({ db, adminEmail: ADMIN_EMAIL, memberLimits: RELAXED_LIMITS });
      registerDatabase(app, db); // Create Account's emailed link is read from its queue of emails
      servers.push({
        app,
        db,
        close: async () => {
          await app.close();
          await db.close();
        },
      });
    }
  });

  it('a change made through one is announced on the other one’s stream, and pulled there', async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const secondUrl = await listen(second);
    const writer = new Client(first.app);
    await writer.join('writer@example.com');
    const reader = new Client(second.app);
    await reader.join('writer@example.com');
    const stream = await openEventStream(secondUrl, reader.cookie!);
    const start = await stream.nextCursor(() => true);
    const pushed = await writer.push(createOp('Made on the first instance'));
    const heard = await stream.nextCursor((cursor) => cursor > start);
    expect(heard).toBe(pushed.body.cursor);
    const pulled = await reader.pull(start);
    expect(pulled.body.posts.map((post: { title: string }) => post.title)).toEqual(['Made on the first instance']);
    stream.close();
  });
});
