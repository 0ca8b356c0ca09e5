// The holes an attack test over HTTP found (issue 19, "Security upkeep"), each closed: no query
// parameter, hash or token in the logs; no lock-out of an owner from another address; no account
// probe through a nameless Create Account; no foreign Host (DNS rebinding); capped live streams
// that end with their session; errors before any route in the documented shape; scrypt at OWASP's
// cost with old hashes upgraded; a like batch refused in full changes nothing.
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, ConfigError } from '../../../server/config';
import { findUser, setPassword } from '../../../server/db/members/accounts';
import { changeHead } from '../../../server/db/sync/changes';
import { CHANGES_CHANNEL } from '../../../server/db/ops/answers';
import { HostNames } from '../../../server/lib/host-names';
import {
  hashPassword,
  hashWith,
  isPasswordHash,
  needsRehash,
  NO_ONES_HASH,
  SCRYPT_COST,
  scryptCostFrom,
  STANDARD_ARGON2_COST,
  STANDARD_COST,
  STANDARD_SCRYPT_COST,
  verifyPassword,
} from '../../../server/lib/passwords';
import { listen, testServer, type TestServer } from '../support/app';
import { Client, createOp, likeOp, reviewOp, TEST_PASSWORD } from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../support/databases';
import { openEventStream, type EventStream } from '../support/sse';

/** `promise`, or a rejection naming `what` after `ms` (a fix that is missing fails fast, not at the test's timeout). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.each(BACKENDS)('logs never hold query parameters, hashes or tokens (%s)', (backend) => {
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await testServer(backend, { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    // Two statements that fail inside the database, as an unexpected fault would: a sign-up (held
    // until its link is used) named "Boom Boom", and a post titled "Boom".
    await server.db.query(`ALTER TABLE pending_signups ADD CONSTRAINT signups_no_boom CHECK (name <> 'Boom Boom')`);
    await server.db.query(`ALTER TABLE posts ADD CONSTRAINT posts_no_boom CHECK (title <> 'Boom')`);
  });
  afterAll(() => server.close());

  it('a sign-up failing in the database logs the failure without its parameters (the new hash, the email)', async () => {
    const email = `boom-${randomUUID().slice(0, 8)}@example.com`;
    const password = `pw-${randomUUID()}`;
    const answer = await new Client(server.app).signIn(email, password, 'signup', 'Boom Boom');
    expect(answer.status).toBe(500);
    const member = new Client(server.app);
    await member.join(`poster-${randomUUID().slice(0, 8)}@example.com`);
    const token = member.cookie!.split('=')[1]!;
    // One failing operation of a push is answered `failed` (the batch goes on), and logged.
    const pushed = await member.push(createOp('Boom'));
    expect(pushed.status).toBe(200);
    expect(pushed.body.results[0]).toMatchObject({ status: 'failed', code: 'server_error' });
    const log = lines.join('');
    const failures = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'request failed' || entry.msg === 'an operation failed');
    expect(failures).toHaveLength(2);
    for (const secret of ['scrypt$', password, email, token, 'Failing row', 'Some content.'])
      expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
    // What helps find the fault stays: the engine's code and the constraint's name.
    expect(failures.map((entry) => [entry.err.code, entry.err.constraint])).toEqual([
      ['23514', 'signups_no_boom'],
      ['23514', 'posts_no_boom'],
    ]);
  });
});

describe('a stranger’s wrong passwords never lock the owner out from another address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite'); // the default limits: 10 wrong passwords per email and address
  });
  afterAll(() => server.close());

  it('ten wrong admin passwords from one address stop that address only', async () => {
    const attacker = '203.0.113.7';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1)
      statuses.push((await new Client(server.app, attacker).signIn(ADMIN_EMAIL, `guess-${attempt}`)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // Even the right password waits, from the guessing address…
    expect((await new Client(server.app, attacker).signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(429);
    // …but the owner, elsewhere, signs in at once.
    const owner = await new Client(server.app, '198.51.100.20').signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(owner).toMatchObject({ status: 200, body: { user: { role: 'admin' } } });
  });
});

describe('Create Account without a name', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  it('answers the same for an email with an account and one without', async () => {
    await new Client(server.app).join('has-account@example.com');
    const known = await new Client(server.app).signIn('has-account@example.com', TEST_PASSWORD, 'signup');
    const unknown = await new Client(server.app).signIn('no-account@example.com', TEST_PASSWORD, 'signup');
    const admin = await new Client(server.app).signIn(ADMIN_EMAIL, 'guess', 'signup');
    for (const answer of [known, unknown, admin])
      expect(answer).toMatchObject({ status: 400, body: { error: { code: 'invalid', message: 'Please fill all fields.' } } });
  });
});

describe('the Host check (DNS rebinding)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite', { hosts: { publicOrigins: ['https://forum.example.com'] } });
  });
  afterAll(() => server.close());

  const ask = (method: 'GET' | 'POST', url: string, host: string, extra: Record<string, string> = {}, payload?: object) =>
    server.app.inject({ method, url, headers: { host, ...extra }, ...(payload ? { payload } : {}) });

  it('refuses a foreign name with 421, even when the Origin matches it', async () => {
    const body = { mode: 'signup', email: 'rebound@example.com', password: TEST_PASSWORD, name: 'Rebound' };
    for (const host of ['evil.example', 'evil.example:4173', 'localhost.evil.example', 'forum.example.com.evil.example']) {
      const write = await ask('POST', '/api/session', host, { origin: `http://${host}` }, body);
      expect(write.statusCode, host).toBe(421);
      expect(write.json()).toEqual({
        error: {
          code: 'bad_host',
          message: 'This server does not answer at this address. Its operator can add the address to PUBLIC_ORIGIN.',
        },
      });
      expect((await ask('GET', '/api/health', host)).statusCode, host).toBe(421);
    }
    expect(await findUser(server.db, 'rebound@example.com')).toBeUndefined();
  });

  it('answers its own names: loopback on any port, and PUBLIC_ORIGIN’s', async () => {
    for (const host of [
      'localhost',
      'localhost:80',
      'LOCALHOST:4173',
      '127.0.0.1:4173',
      '[::1]:4173',
      'app.localhost:5173',
      'forum.example.com',
    ]) {
      const answer = await ask('GET', '/api/health', host);
      expect(answer.statusCode, host).toBe(200);
    }
    const write = await ask(
      'POST',
      '/api/session',
      'forum.example.com',
      { origin: 'http://forum.example.com' },
      { mode: 'signup', email: 'public@example.com', password: TEST_PASSWORD, name: 'Public' },
    );
    expect(write.statusCode).toBe(200);
  });

  it('knows the machine’s names when HOST is every interface, HOST itself otherwise', () => {
    const everywhere = new HostNames({ listenHost: '0.0.0.0' });
    expect(everywhere.allows(`${hostname()}:4173`)).toBe(true);
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (lan) expect(everywhere.allows(`${lan.address}:4173`)).toBe(true);
    expect(everywhere.allows('evil.example')).toBe(false);
    const one = new HostNames({ listenHost: '192.0.2.10' });
    expect([one.allows('192.0.2.10:4173'), one.allows('localhost:4173'), one.allows(hostname()), one.allows('')]).toEqual([
      true,
      true,
      hostname() === 'localhost',
      false,
    ]);
    expect(new HostNames({ listenHost: '::' }).allows('[::1]:80')).toBe(true);
  });

  it('under TRUST_PROXY checks the forwarded name', async () => {
    const proxied = await testServer('pglite', { trustProxy: 1, hosts: { publicOrigins: ['https://forum.example.com'] } });
    try {
      const as = (forwarded: string) =>
        proxied.app.inject({ method: 'GET', url: '/api/health', headers: { host: '127.0.0.1:4173', 'x-forwarded-host': forwarded } });
      expect((await as('forum.example.com')).statusCode).toBe(200);
      expect((await as(hostname())).statusCode).toBe(200);
      expect((await as('evil.example')).statusCode).toBe(421);
    } finally {
      await proxied.close();
    }
  });

  it('reads PUBLIC_ORIGIN as a list of origins, and refuses anything else', () => {
    expect(readConfig({ PUBLIC_ORIGIN: 'https://forum.example.com, http://forum.lan:4173' }).publicOrigins).toEqual([
      'https://forum.example.com',
      'http://forum.lan:4173',
    ]);
    expect(readConfig({}).publicOrigins).toEqual([]);
    for (const bad of ['forum.example.com', 'https://forum.example.com/app', 'ftp://x.example'])
      expect(() => readConfig({ PUBLIC_ORIGIN: bad }), bad).toThrow(ConfigError);
  });

  it('reads REQUEST_TIMEOUT_MS and MAX_CONNECTIONS_PER_ADDRESS (120 s and 256 unless set), and refuses anything else', () => {
    expect(readConfig({}).connections).toEqual({ requestTimeoutMs: 120_000, perAddress: 256 });
    expect(readConfig({ REQUEST_TIMEOUT_MS: '5000', MAX_CONNECTIONS_PER_ADDRESS: '20' }).connections).toEqual({
      requestTimeoutMs: 5000,
      perAddress: 20,
    });
    for (const bad of ['0', '999', 'soon', '600001'])
      expect(() => readConfig({ REQUEST_TIMEOUT_MS: bad }), bad).toThrow(/REQUEST_TIMEOUT_MS/);
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(() => readConfig({ MAX_CONNECTIONS_PER_ADDRESS: bad }), bad).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
  });

  it('reads DATABASE_POOL_MODE and DATABASE_LISTEN_URL (a transaction pooler in front of PostgreSQL), and refuses anything else', () => {
    const pooled = readConfig({
      DATABASE_URL: 'postgres://app@127.0.0.1:6432/forum',
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_LISTEN_URL: 'postgres://app@127.0.0.1:5432/forum',
    });
    expect(pooled).toMatchObject({ databasePoolMode: 'transaction', databaseListenUrl: 'postgres://app@127.0.0.1:5432/forum' });
    expect(readConfig({ DATABASE_URL: 'postgres://app@127.0.0.1/forum' })).toMatchObject({ databasePoolMode: 'session' });
    expect(readConfig({}).databaseListenUrl).toBeUndefined();
    expect(() => readConfig({ DATABASE_URL: 'postgres://a@h/d', DATABASE_POOL_MODE: 'statement' })).toThrow(/session or transaction/);
    expect(() => readConfig({ DATABASE_URL: 'postgres://a@h/d', DATABASE_LISTEN_URL: 'mysql://a@h/d' })).toThrow(ConfigError);
    expect(() => readConfig({ DATABASE_LISTEN_URL: 'postgres://a@h/d' })).toThrow(/needs DATABASE_URL/);
  });
});

describe.each(BACKENDS)('live streams: capped, and ended with their session (%s)', (backend) => {
  let server: TestServer;
  let base: string;
  const opened: EventStream[] = [];

  // A server per test: streams a failing test leaves open never crowd the next one.
  beforeEach(async () => {
    server = await testServer(backend, { streams: { perSession: 10, perInstance: 25 } });
    base = await listen(server);
  });
  afterEach(async () => {
    for (const stream of opened.splice(0)) stream.close();
    await server.close();
  });
  const open = async (cookie: string) => {
    const stream = await openEventStream(base, cookie);
    opened.push(stream);
    return stream;
  };

  it('one session holds at most 10; the eleventh is 429 with a sentence, and a closed one frees its place', async () => {
    const member = new Client(server.app);
    await member.join('many-tabs@example.com');
    const streams = [];
    for (let index = 0; index < 10; index += 1) streams.push(await open(member.cookie!));
    const eleventh = await fetch(`${base}/api/events`, { headers: { cookie: member.cookie! } });
    expect(eleventh.status).toBe(429);
    expect(await eleventh.json()).toEqual({
      error: {
        code: 'too_many_streams',
        message: 'Too many live updates are open for this session. Close some tabs or windows, then try again.',
      },
    });
    streams[0]!.close();
    await within(
      (async () => {
        for (;;) {
          const again = await fetch(`${base}/api/events`, { headers: { cookie: member.cookie! } });
          if (again.status === 200) return again.body?.cancel();
          await again.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
      5000,
      'a stream after one was closed',
    );
    // Sign-out ends the other nine.
    const ended = streams.slice(1).map((stream) => stream.ended());
    expect((await member.request('DELETE', '/api/session')).status).toBe(204);
    await within(Promise.all(ended), 5000, 'the streams ending at sign-out');
  });

  it('the instance holds at most its limit, whoever asks', async () => {
    const members = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const member = new Client(server.app);
        await member.join(`crowd-${index}@example.com`);
        return member;
      }),
    );
    const streams = [];
    for (let index = 0; index < 25; index += 1) streams.push(await open(members[index % 3]!.cookie!));
    const over = await fetch(`${base}/api/events`, { headers: { cookie: members[0]!.cookie! } });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await over.json()) as { error: unknown }).error).toEqual({
      code: 'server_busy',
      message: 'The server has too many live connections right now. Please try again in a moment.',
    });
    const ended = streams.map((stream) => stream.ended());
    for (const stream of streams) stream.close();
    await Promise.allSettled(ended);
  });

  it('a sign-in that replaces the session, and an admin password change, end the old session’s streams', async () => {
    const member = new Client(server.app);
    await member.join('replaced@example.com');
    const before = await open(member.cookie!);
    await member.join('replaced@example.com');
    await within(before.ended(), 5000, 'the stream of the replaced session ending');
    const after = await open(member.cookie!);
    await after.nextCursor(() => true);

    const admin = new Client(server.app);
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const adminStream = await open(admin.cookie!);
    const account = (await findUser(server.db, ADMIN_EMAIL))!;
    await setPassword(server.db, account.id, await hashPassword('a new admin password')); // what `npm run admin:password` does
    await within(adminStream.ended(), 5000, 'the admin’s stream ending after the password change');
    // The member's stream, in another session, stays.
    const head = await changeHead(server.db);
    await member.push(createOp('Still live'));
    expect(
      await within(
        after.nextCursor((cursor) => cursor > head),
        5000,
        'the member’s stream',
      ),
    ).toBeGreaterThan(head);
  });
});

describe('errors before any route answer the documented shape', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await testServer('pglite');
    port = Number(new URL(await listen(server)).port);
  });
  afterAll(() => server.close());

  /** One request written by hand on a socket; resolves with the status line's code and the body. */
  const rawRequest = (text: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
    });

  it('headers over the limit: 431 as `{ error: { code, message } }`', async () => {
    const answer = await new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/health', headers: { 'x-big': 'a'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'headers_too_large', message: 'The request’s headers are too large.' } });
  });

  it('a request node cannot parse, one without Host, and a malformed URL', async () => {
    const garbage = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toEqual({ error: { code: 'bad_request', message: 'The request is not valid.' } });
    const noHost = await rawRequest('GET /api/health HTTP/1.0\r\n\r\n');
    expect(noHost.status).toBe(421);
    expect(JSON.parse(noHost.body).error.code).toBe('bad_host');
    const badUrl = await server.app.inject({ method: 'GET', url: '/api/%zz%' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ error: { code: 'bad_request', message: 'The request is not valid.' } });
  });
});

describe('passwords: argon2id at OWASP’s minimum (scrypt in test runs), older hashes upgraded at sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  it('hashes with N = 2^17, r = 8, p = 1 unless PASSWORD_SCRYPT_N lowers N for a test run', async () => {
    expect(STANDARD_SCRYPT_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(scryptCostFrom({})).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptCostFrom({ PASSWORD_SCRYPT_N: ' ' })).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptCostFrom({ PASSWORD_SCRYPT_N: '1024' })).toEqual({ N: 1024, r: 8, p: 1 });
    for (const wrong of ['1000', '512', '262144', 'fast', '2e3'])
      expect(() => scryptCostFrom({ PASSWORD_SCRYPT_N: wrong })).toThrow(
        `PASSWORD_SCRYPT_N must be a power of two from 1024 to 131072, not "${wrong}".`,
      );
    expect(() => readConfig({ PASSWORD_SCRYPT_N: '100' })).toThrow(ConfigError);
    // This run's hashes carry the cost they were made with (the test suites lower it: vitest.server.config.ts).
    expect((await hashPassword('pw')).split('$').slice(0, 4)).toEqual(['scrypt', String(SCRYPT_COST.N), '8', '1']);
  });

  it('replaces a hash of an older, lower cost at the next successful sign-in, keeping the password', async () => {
    const member = new Client(server.app);
    await member.join('old-hash@example.com', 'the-old-password');
    const salt = randomBytes(16);
    const older = SCRYPT_COST.N / 2;
    const oldHash = [
      'scrypt',
      older,
      8,
      1,
      salt.toString('base64url'),
      scryptSync('the-old-password', salt, 32, { N: older }).toString('base64url'),
    ].join('$');
    await server.db.query('UPDATE users SET password_hash = $2 WHERE email = $1', ['old-hash@example.com', oldHash]);
    expect((await new Client(server.app).signIn('old-hash@example.com', 'wrong')).status).toBe(401);
    expect((await findUser(server.db, 'old-hash@example.com'))!.passwordHash).toBe(oldHash);
    expect((await new Client(server.app).signIn('old-hash@example.com', 'the-old-password')).status).toBe(200);
    const upgraded = (await findUser(server.db, 'old-hash@example.com'))!.passwordHash;
    expect(upgraded.split('$').slice(0, 4)).toEqual(['scrypt', String(SCRYPT_COST.N), '8', '1']);
    expect(await verifyPassword('the-old-password', upgraded)).toBe(true);
    expect((await new Client(server.app).signIn('old-hash@example.com', 'the-old-password')).status).toBe(200);
    // The member's session stayed: an upgrade is not a password change.
    expect((await member.request('GET', '/api/session')).status).toBe(200);
  });

  it('makes argon2id at 19 MiB, 2 passes, 1 lane where the cost is standard; verifies it; a forged cost verifies nothing', async () => {
    expect(STANDARD_ARGON2_COST).toEqual({ memory: 19_456, passes: 2, parallelism: 1 });
    const stored = await hashWith('a-long-password', STANDARD_COST);
    expect(stored.split('$').slice(0, 4)).toEqual(['argon2id', '19456', '2', '1']);
    expect(stored).not.toBe(await hashWith('a-long-password', STANDARD_COST));
    expect(isPasswordHash(stored)).toBe(true);
    expect(await verifyPassword('a-long-password', stored)).toBe(true);
    expect(await verifyPassword('a-long-passworD', stored)).toBe(false);
    // NFKC: the same password typed with a composed or a decomposed accent.
    const accented = await hashWith('caf\u00e9-password', STANDARD_COST);
    expect(await verifyPassword('cafe\u0301-password', accented)).toBe(true);
    // A row whose cost would take the server's memory or time (or is not a hash at all) signs nobody in.
    const [, , , , salt, hash] = stored.split('$');
    for (const forged of [
      `argon2id$1048576$2$1$${salt}$${hash}`,
      `argon2id$19456$99$1$${salt}$${hash}`,
      `argon2id$4$2$1$${salt}$${hash}`,
      'sso',
      '',
    ])
      expect([forged, isPasswordHash(forged), await verifyPassword('a-long-password', forged)]).toEqual([forged, false, false]);
  });

  it('replaces scrypt (an older build’s) with argon2id where argon2id is current; a test run’s lowered scrypt never replaces argon2id', async () => {
    const argon = await hashWith('pw-argon', STANDARD_COST);
    const standardScrypt = await hashWith('pw-scrypt', { scheme: 'scrypt', ...STANDARD_SCRYPT_COST });
    const weakerArgon = await hashWith('pw-weak', { scheme: 'argon2id', memory: 9_216, passes: 2, parallelism: 1 });
    expect(needsRehash(standardScrypt, STANDARD_COST)).toBe(true);
    expect(needsRehash(weakerArgon, STANDARD_COST)).toBe(true);
    expect(needsRehash(argon, STANDARD_COST)).toBe(false);
    expect(needsRehash('sso', STANDARD_COST)).toBe(true);
    // This run lowers scrypt (vitest.server.config.ts): its own hashes are current, argon2id is kept.
    expect(needsRehash(argon)).toBe(false);
    expect(needsRehash(await hashPassword('pw'))).toBe(false);
    expect(await verifyPassword('pw-scrypt', standardScrypt)).toBe(true);
    expect(NO_ONES_HASH.split('$').slice(0, 4)).toEqual(['scrypt', String(SCRYPT_COST.N), '8', '1']);
  });

  it('signs in a member whose stored hash is argon2id, and keeps it', async () => {
    await new Client(server.app).join('argon-member@example.com', 'the-argon-password');
    const stored = await hashWith('the-argon-password', STANDARD_COST);
    await server.db.query('UPDATE users SET password_hash = $2 WHERE email = $1', ['argon-member@example.com', stored]);
    expect((await new Client(server.app).signIn('argon-member@example.com', 'the-argon-passworD')).status).toBe(401);
    expect((await new Client(server.app).signIn('argon-member@example.com', 'the-argon-password')).status).toBe(200);
    expect((await findUser(server.db, 'argon-member@example.com'))!.passwordHash).toBe(stored);
  });
});

describe.each(BACKENDS)('a like batch refused in full changes nothing (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend);
  });
  afterAll(() => server.close());

  it('neither moves the change head nor notifies', async () => {
    const member = new Client(server.app);
    await member.join('refused-likes@example.com');
    const admin = new Client(server.app);
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const pending = await member.createPost('Pending');
    const approved = await member.createPost('Approved');
    await admin.push(reviewOp(approved));
    const liked = likeOp(approved);
    await member.push(liked);
    const heard: string[] = [];
    const stop = await server.db.listen(CHANGES_CHANNEL, (payload) => heard.push(payload));
    try {
      const head = await changeHead(server.db);
      const refused = await member.push(likeOp(pending), likeOp(999_999_999), liked);
      expect(refused.body.results.map((result: { status: string; code?: string }) => result.code ?? result.status)).toEqual([
        'not_approved',
        'not_found',
        'duplicate',
      ]);
      expect(refused.body.cursor).toBeLessThanOrEqual(head);
      expect(await changeHead(server.db)).toBe(head);
      // A change made afterwards is the first thing heard, with the very next number.
      const made = await member.push(createOp('After the refusals'));
      expect(made.body.cursor).toBe(head + 1);
      await within(
        (async () => {
          while (!heard.includes(String(head + 1))) await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        5000,
        'the NOTIFY of the create',
      );
      // (A NOTIFY of the like made before the listener started may still arrive late: at or below head.)
      expect(heard.filter((payload) => Number(payload) > head)).toEqual([String(head + 1)]);
    } finally {
      await stop();
    }
  });
});
