// Security over real HTTP (the app listening on 127.0.0.1): cross-site writes refused, cookie
// flags, the sign-in limit, oversized and malformed bodies, hostile text stored and returned
// literally (never as HTML), forged fields of a create ignored.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, testServer, type TestServer } from '../support/app';
import type { AppOptions } from '../../../server/app';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/databases';
import { HttpClient } from '../support/http';
import { signUpToken, TEST_PASSWORD } from '../support/client';
import { signUpAndFollowLink } from '../support/mail-folder';
import { nameFromEmail, parseTags } from '../../../src/shared/post-rules';
import { SQL_PAYLOADS, XSS_PAYLOADS } from '../support/payloads';
import { hiddenCharacter } from '../../../src/shared/text-checks';

describe('security over HTTP (PGlite)', () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await testServer('pglite', {
      limits: { perEmailAndAddress: { max: 3, windowMs: 60_000 }, perAddress: { max: 1000, windowMs: 60_000 } },
    });
    base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server.close());

  /** A raw request with exactly these headers and body; answers status, headers and text. */
  const raw = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const response = await fetch(base + path, { method, headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const signedIn = async (email: string) => {
    const client = new HttpClient(base);
    const joined = await signUpAndFollowLink(client.send.bind(client), (address) => signUpToken(server.db, address), {
      email,
      password: TEST_PASSWORD,
      name: nameFromEmail(email),
    });
    expect(joined.status).toBe(200);
    return client;
  };

  it('refuses a cross-site form post and a fetch from a foreign Origin, before anything is written', async () => {
    const member = await signedIn('victim@example.com');
    const op = JSON.stringify({ ops: [{ id: randomUUID(), type: 'create', post: { title: 'Forged', content: 'x', category: 'Trends' } }] });
    const cookie = member.cookie!;
    const attempts: Record<string, string>[] = [
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie },
      { 'content-type': 'text/plain', origin: 'https://evil.example', cookie },
      { 'content-type': 'application/json', origin: 'https://evil.example', cookie },
      { 'content-type': 'application/json', origin: 'null', cookie },
      { 'content-type': 'application/json', cookie },
    ];
    for (const headers of attempts) {
      const answer = await raw('POST', '/api/ops', headers, op);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.text)).toEqual({
        error: { code: 'bad_origin', message: 'This request did not come from this site, so it was refused.' },
      });
    }
    // Same origin but a form encoding: still refused, as JSON is the only body accepted.
    const form = await raw('POST', '/api/ops', { 'content-type': 'application/x-www-form-urlencoded', origin: base, cookie }, 'ops=1');
    expect(form.status).toBe(415);
    expect(JSON.parse(form.text).error.code).toBe('bad_content_type');
    const pulled = await member.send('GET', '/api/changes?after=0&limit=1000');
    expect(pulled.body.posts.filter((post: { title: string }) => post.title === 'Forged')).toEqual([]);
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, Path=/ and with an expiry; sign-out clears it', async () => {
    await raw(
      'POST',
      '/api/session',
      { 'content-type': 'application/json', origin: base },
      JSON.stringify({ mode: 'signup', email: 'flags@example.com', password: TEST_PASSWORD, name: 'Flags' }),
    );
    // The emailed link signs in (issue 59: Create Account itself opens no session).
    const answer = await raw(
      'POST',
      '/api/email/confirm',
      { 'content-type': 'application/json', origin: base },
      JSON.stringify({ token: await signUpToken(server.db, 'flags@example.com'), password: TEST_PASSWORD }),
    );
    const cookie = answer.headers.getSetCookie().find((value) => value.startsWith('ie_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=\d+/);
    expect(cookie).not.toMatch(/Domain=/);
    const out = await raw('DELETE', '/api/session', { origin: base, cookie: cookie.split(';')[0]! });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().find((value) => value.startsWith('ie_session='))).toMatch(/ie_session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('limits wrong passwords per email and address with 429 and a readable wait, even with the right password', async () => {
    await signedIn('limited@example.com');
    const client = new HttpClient(base);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (await client.send('POST', '/api/session', { mode: 'signin', email: 'limited@example.com', password: 'wrong-password' })).status,
      ).toBe(401);
    }
    const blocked = await client.send('POST', '/api/session', { mode: 'signin', email: 'limited@example.com', password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.body.error.code).toBe('rate_limited');
    expect(blocked.body.error.message).toMatch(/minute|second/);
  });

  it('answers oversized and malformed bodies with readable JSON errors, never a stack', async () => {
    const member = await signedIn('bodies@example.com');
    const headers = { 'content-type': 'application/json', origin: base, cookie: member.cookie! };
    const cases: [string, number, string][] = [
      [
        JSON.stringify({
          ops: [{ id: randomUUID(), type: 'create', post: { title: 'x', content: 'y'.repeat(2 * 1024 * 1024), category: 'Trends' } }],
        }),
        413,
        'too_large',
      ],
      ['{"ops": [', 400, 'bad_json'],
      ['', 400, 'empty_body'],
      ['null', 400, 'invalid'],
      ['{"ops": "not a list"}', 400, 'invalid'],
      [JSON.stringify({ ops: [{ id: 'not-a-uuid', type: 'like', postId: 1 }] }), 400, 'invalid'],
      [JSON.stringify({ ops: [{ id: randomUUID(), type: 'drop_table', postId: 1 }] }), 400, 'invalid'],
      [JSON.stringify({ ops: [{ id: randomUUID(), type: 'like', postId: 1, count: 1e12 }] }), 400, 'invalid'],
      ['{"__proto__": {"admin": true}, "ops": []}', 400, 'bad_json'],
      // A megabyte of nesting is refused before anything parses it (it stalled the event loop for seconds).
      ['['.repeat(500_000) + ']'.repeat(500_000), 400, 'too_deep'],
      [`{"ops": [{"id": "${randomUUID()}", "type": "create", "post": ${'{"a":'.repeat(40)}1${'}'.repeat(40)}}]}`, 400, 'too_deep'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await raw('POST', '/api/ops', headers, body);
      expect(answer.status, body.slice(0, 60)).toBe(status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const json = JSON.parse(answer.text);
      expect(json.error.code, body.slice(0, 60)).toBe(code);
      expect(json.error.message).toMatch(/^[A-Z].*[.:]/);
      expect(answer.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d/);
    }
    const session = await raw(
      'POST',
      '/api/session',
      { 'content-type': 'application/json', origin: base },
      JSON.stringify({ mode: 'signin', email: 'x@example.com', password: 'p'.repeat(100_000) }),
    );
    expect(session.status).toBe(413);
    // Every route that takes no body of its own: 64 KiB at most.
    const search = await raw('POST', '/api/search', headers, JSON.stringify({ q: 'x'.repeat(100_000) }));
    expect(search.status).toBe(413);
  });

  it('sends HSTS only over https: never over plain http (a browser would be told to insist on what is not there)', async () => {
    for (const path of ['/api/health', '/forum']) {
      const answer = await raw('GET', path, {});
      expect(answer.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('stores 50+ XSS payloads through one device and returns them to another byte for byte, only ever as JSON', async () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
    // Issue 59: a payload that hides a character (a right-to-left override) is refused in words, not stored.
    const hides = (payload: string) => hiddenCharacter(payload, 'lines') !== null;
    expect(XSS_PAYLOADS.filter(hides)).toEqual(['\u202E<script>alert(1)</script>']);
    const writer = await signedIn('xss-writer@example.com');
    const admin = new HttpClient(base);
    await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const ops = XSS_PAYLOADS.map((payload) => ({
      id: randomUUID(),
      type: 'create',
      post: { title: payload, content: `${payload}\n${payload}`, category: 'Trends', tags: [payload.slice(0, 40).trim()] },
    }));
    const pushed = await writer.send('POST', '/api/ops', { ops });
    expect(pushed.body.results.map((result: { status: string }) => result.status)).toEqual(
      XSS_PAYLOADS.map((payload) => (hides(payload) ? 'refused' : 'applied')),
    );
    await admin.send('POST', '/api/ops', {
      ops: pushed.body.results
        .filter((result: { status: string }) => result.status === 'applied')
        .map((result: { postId: number }) => ({ id: randomUUID(), type: 'approve', postId: result.postId })),
    });
    const reader = await signedIn('xss-reader@example.com');
    const response = await fetch(`${base}/api/changes?after=0&limit=1000`, { headers: { cookie: reader.cookie! } });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'|script-src 'self'/);
    const posts = ((await response.json()) as { posts: { title: string; content: string; tags: string[] }[] }).posts;
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      if (hides(payload)) continue;
      const post = posts.find((candidate) => candidate.title === payload);
      expect(post, payload).toBeDefined();
      expect(post!.content).toBe(`${payload}\n${payload}`);
      // A tag as the composer reads what is typed (parseTags: a comma parts two tags, a leading # goes).
      expect(post!.tags).toEqual(parseTags(ops[index]!.post.tags[0]!));
    }
  });

  it('stores SQL-injection strings in every field literally, and the tables are intact', async () => {
    const email = `o'reilly--${randomUUID().slice(0, 8)}@example.com`;
    const member = new HttpClient(base);
    const signup = await signUpAndFollowLink(member.send.bind(member), (address) => signUpToken(server.db, address), {
      email,
      password: "' OR '1'='1",
      name: "Robert'); DROP TABLE users;--",
    });
    expect(signup.status).toBe(200);
    expect(signup.body.user.name).toBe("Robert'); DROP TABLE users;--");
    const ops = SQL_PAYLOADS.map((payload) => ({
      id: randomUUID(),
      type: 'create',
      post: { title: payload, content: payload, category: 'Trends', tags: [payload.slice(0, 40).trim()] },
    }));
    const pushed = await member.send('POST', '/api/ops', { ops });
    expect(pushed.body.results.every((result: { status: string }) => result.status === 'applied')).toBe(true);
    const pulled = await member.send('GET', '/api/changes?after=0&limit=1000');
    for (const payload of SQL_PAYLOADS) {
      const post = pulled.body.posts.find((candidate: { title: string }) => candidate.title === payload);
      expect(post, payload).toMatchObject({
        content: payload,
        tags: [payload.slice(0, 40).trim()],
        author: "Robert'); DROP TABLE users;--",
        authorEmail: email,
        likes: 0,
      });
    }
    // Injection through the query string and the sign-in fields is refused or harmless.
    expect((await member.send('GET', '/api/changes?after=0%20OR%201=1&limit=10')).status).toBe(400);
    const again = new HttpClient(base);
    expect((await again.send('POST', '/api/session', { mode: 'signin', email, password: "' OR ''='" })).status).toBe(401);
    const [tables] = await server.db.query<{ count: unknown }>(
      `SELECT count(*) AS count FROM information_schema.tables WHERE table_name IN ('users','posts','ops','change_head','sessions')`,
    );
    expect(Number(tables!.count)).toBe(5);
  });

  it('ignores forged fields in a create: id, author, role, likes, status, dates, seq', async () => {
    const member = await signedIn('forger@example.com');
    const forged = {
      title: 'Forged fields',
      content: 'x',
      category: 'Trends',
      id: 1,
      author: 'Admin',
      authorEmail: ADMIN_EMAIL,
      authorRole: 'admin',
      likes: 999,
      comments: 50,
      views: 1e6,
      status: 'approved',
      date: '2001-01-01',
      isTopContributor: true,
      seq: 0,
    };
    const answer = await member.send('POST', '/api/ops', {
      ops: [{ id: randomUUID(), type: 'create', post: forged, author: 'Admin', role: 'admin' }],
    });
    const post = answer.body.results[0].post;
    expect(post).toMatchObject({
      author: 'Forger',
      authorEmail: 'forger@example.com',
      authorRole: 'user',
      likes: 0,
      comments: 0,
      views: 0,
      status: 'pending',
      date: 'Just now',
      isTopContributor: false,
    });
    expect(post.id).not.toBe(1);
    expect(post.seq).toBeGreaterThan(0);
  });
});

describe('connections a client cannot hold (PGlite)', () => {
  // REQUEST_TIMEOUT_MS of 1 s here (120 s by default), so a request cut off is seen in about a second.
  const TIMEOUT_MS = 1000;
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const started = async (options: Partial<AppOptions>) => {
    const server = await testServer('pglite', options);
    servers.push(server);
    const base = await listen(server);
    return { server, port: Number(new URL(base).port), base };
  };

  /** A raw socket to `port`: what it wrote, and what the server answered until it closed (and when). */
  const rawSocket = (port: number) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<{ text: string; at: number }>((resolve) => socket.once('close', () => resolve({ text, at: Date.now() })));
    return { socket, opened, closed, text: () => text };
  };
  const bodyHeaders = (port: number, length: number) =>
    `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
  const TIMEOUT_BODY = JSON.stringify({ error: { code: 'request_timeout', message: 'The request took too long to arrive.' } });

  it('cuts off a body sent one byte at a time, and one never finished, with 408 and a sentence', async () => {
    const { port } = await started({ connections: { requestTimeoutMs: TIMEOUT_MS } });
    const start = Date.now();
    // One byte every 100 ms of a 1,000-byte body: it would take 100 s.
    const trickle = rawSocket(port);
    await trickle.opened;
    trickle.socket.write(bodyHeaders(port, 1000));
    const drip = setInterval(() => trickle.socket.writable && trickle.socket.write(' '), 100);
    // Half a body, then nothing.
    const stalled = rawSocket(port);
    await stalled.opened;
    stalled.socket.write(bodyHeaders(port, 100) + '{"mode":');
    // Headers never finished.
    const headless = rawSocket(port);
    await headless.opened;
    headless.socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const answers = await Promise.all([trickle.closed, stalled.closed, headless.closed]);
    clearInterval(drip);
    for (const { text, at } of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text.endsWith(TIMEOUT_BODY)).toBe(true);
      expect(at - start).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(at - start).toBeLessThan(TIMEOUT_MS * 4);
    }
  });

  it('holds at most MAX_CONNECTIONS_PER_ADDRESS connections from one address; the next is answered 429 and closed', async () => {
    const { port, base } = await started({ connections: { perAddress: 3 } });
    const held = [rawSocket(port), rawSocket(port), rawSocket(port)];
    // Each answered once, so the server has counted it; kept alive after.
    for (const socket of held) {
      await socket.opened;
      socket.socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await expect.poll(() => socket.text()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const extra = await rawSocket(port).closed;
    expect(extra.text).toMatch(/^HTTP\/1\.1 429 /);
    expect(extra.text).toMatch(/Retry-After: 5\r\n/);
    expect(JSON.parse(extra.text.slice(extra.text.indexOf('\r\n\r\n') + 4)).error.code).toBe('too_many_connections');
    // One held connection closes: the address may connect again.
    held[0]!.socket.destroy();
    await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status).toBe(200);
    for (const socket of held) socket.socket.destroy();
  });

  it('behind TRUST_PROXY, counts the requests in flight of each client address, not the proxy’s', async () => {
    const { port, base } = await started({ trustProxy: 1, connections: { perAddress: 2 } });
    const held = [rawSocket(port), rawSocket(port)];
    for (const socket of held) {
      await socket.opened;
      socket.socket.write(bodyHeaders(port, 100).replace('\r\n\r\n', '\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n') + '{');
    }
    const health = (client: string) => fetch(`${base}/api/health`, { headers: { 'x-forwarded-for': client } });
    await expect.poll(async () => (await health('203.0.113.7')).status).toBe(429);
    const refused = await health('203.0.113.7');
    expect(await refused.json()).toEqual({
      error: {
        code: 'too_many_connections',
        message: 'Too many connections are open from your address. Close some tabs or windows, then try again in a moment.',
      },
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    // Another client behind the same proxy is served.
    expect((await health('198.51.100.9')).status).toBe(200);
    // A held request ends: its address is served again.
    held[0]!.socket.destroy();
    await expect.poll(async () => (await health('203.0.113.7')).status).toBe(200);
    held[1]!.socket.destroy();
  });
});
