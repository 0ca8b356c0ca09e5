// Accounts and sessions: sign-in creates an account, Create Account sets the name, a known email
// needs its password, the admin address cannot be claimed, cookies, sign-out, attempt limits, Origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from './support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from './support/databases';
import { testServer, type TestServer } from './support/app';

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend, {
      limits: { perEmailAndAddress: { max: 3, windowMs: 10 * 60_000 }, perAddress: { max: 1000, windowMs: 60_000 } },
    });
  });
  afterAll(() => server.close());

  it('signs in an unknown email by creating the account, then needs its password', async () => {
    const client = new Client(server.app);
    const first = await client.signIn('  Jane.Doe@Example.com ', 'right-password');
    expect(first).toMatchObject({ status: 200, body: { user: { email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' } } });
    const wrong = await new Client(server.app).signIn('jane.doe@example.com', 'wrong');
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'bad_credentials', message: 'Incorrect email or password.' } } });
    expect((await new Client(server.app).signIn('jane.doe@example.com', 'right-password')).status).toBe(200);
  });

  it('Create Account sets the name; a second one for the same email is refused', async () => {
    const made = await new Client(server.app).signIn('sam@example.com', 'pw', 'signup', 'Samantha Q');
    expect(made.body.user).toEqual({ email: 'sam@example.com', name: 'Samantha Q', role: 'user' });
    const again = await new Client(server.app).signIn('sam@example.com', 'other', 'signup', 'Thief');
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'account_exists' } } });
  });

  it('the admin address can never be signed up for or claimed; its password gives the admin role', async () => {
    const claims = [
      await new Client(server.app).signIn(ADMIN_EMAIL, 'guess'),
      await new Client(server.app).signIn(` ${ADMIN_EMAIL.toUpperCase()} `, 'guess', 'signup', 'Fake Admin'),
    ];
    expect(claims.map((answer) => answer.status)).toEqual([401, 409]);
    const admin = await new Client(server.app).signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(admin.body.user.role).toBe('admin');
  });

  it('keeps the session in an HttpOnly SameSite=Strict cookie stored hashed, and sign-out revokes it', async () => {
    const client = new Client(server.app);
    const answer = await client.signIn('cookie@example.com');
    const header = String(answer.headers['set-cookie']);
    expect(header).toMatch(/ie_session=[\w-]{43}/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).not.toMatch(/Secure/); // plain http here; tls.test.ts checks Secure under https
    const token = client.cookie!.split('=')[1]!;
    const rows = await server.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    const stolen = client.cookie;
    expect((await client.request('DELETE', '/api/session')).status).toBe(204);
    const replay = new Client(server.app);
    replay.cookie = stolen;
    expect((await replay.request('GET', '/api/session')).body.error).toEqual({ code: 'signed_out', message: 'Please sign in again.' });
  });

  it('a sign-in ends the session the browser carried until then (one signed out offline never stays alive)', async () => {
    const client = new Client(server.app);
    await client.signIn('offline-out@example.com');
    const left = client.cookie;
    expect((await client.signIn('next-member@example.com')).status).toBe(200);
    expect(client.cookie).not.toBe(left);
    const replay = new Client(server.app);
    replay.cookie = left;
    expect((await replay.request('GET', '/api/session')).body.error).toEqual({ code: 'signed_out', message: 'Please sign in again.' });
    expect((await client.request('GET', '/api/session')).body.user.email).toBe('next-member@example.com');
  });

  it('limits wrong passwords per email and address with a readable wait', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1)
      statuses.push(await new Client(server.app).signIn('limited@example.com', `guess-${attempt}`));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 401, 401, 401, 429]);
    expect(statuses[4]!.body.error).toEqual({ code: 'rate_limited', message: 'Too many attempts. Try again in 10 minutes.' });
    expect(Number(statuses[4]!.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('refuses writes without this server as Origin', async () => {
    const client = new Client(server.app);
    const body = { mode: 'signin', email: 'x@example.com', password: 'pw' };
    for (const origin of ['https://evil.example', 'null', 'http://localhost:81']) {
      const answer = await client.request('POST', '/api/session', body, { origin });
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'bad_origin' } } });
    }
    const response = await server.app.inject({ method: 'POST', url: '/api/session', payload: body });
    expect(response.statusCode).toBe(403);
  });
});

describe('attempt limit per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite', { limits: { perAddress: { max: 2, windowMs: 60_000 } } });
  });
  afterAll(() => server.close());

  it('stops a third attempt from one address whatever the email', async () => {
    const answers = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) answers.push(await new Client(server.app).signIn(email));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.body.error.message).toBe('Too many attempts. Try again in 1 minute.');
  });
});
