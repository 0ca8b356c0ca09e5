// Accounts and sessions: Sign In needs an account and its password (never a new account), Create
// Account sets the name and asks for a long, uncommon password, the admin address cannot be claimed,
// cookies, sign-out, attempt limits, fair hashing, Origin.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../../../server/db/members/accounts';
import { derivationCount, hashPassword } from '../../../../server/lib/passwords';
import { Client, signUpToken, TEST_PASSWORD } from '../../support/client';
import { DEFAULT_LIMITS } from '../../support/limits';
import { SIGN_UP_PASSWORD_NOTE, SIGN_UP_PASSWORD_WRONG_MESSAGE } from '../../../../src/shared/errors';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend, {
      limits: { perEmailAndAddress: { max: 3, windowMs: 10 * 60_000 }, perAddress: { max: 1000, windowMs: 60_000 } },
    });
  });
  afterAll(() => server.close());

  const accounts = async (email: string) => (await server.db.query('SELECT 1 FROM users WHERE email = $1', [email])).length;

  it('Sign In with an unknown email makes no account: the same answer as a wrong password, at the same cost (one derivation)', async () => {
    const before = derivationCount();
    const unknown = await new Client(server.app).signIn('  Typo.Doe@Example.com ', TEST_PASSWORD);
    expect(unknown).toMatchObject({ status: 401, body: { error: { code: 'bad_credentials', message: 'Incorrect email or password.' } } });
    expect(derivationCount() - before).toBe(1);
    expect(await accounts('typo.doe@example.com')).toBe(0);
    expect((await new Client(server.app).request('GET', '/api/session')).status).toBe(401);

    await new Client(server.app).join('jane.doe@example.com', TEST_PASSWORD, 'Jane Doe');
    const middle = derivationCount();
    const wrong = await new Client(server.app).signIn('jane.doe@example.com', 'wrong-but-long-enough');
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.status).toBe(unknown.status);
    expect(derivationCount() - middle).toBe(1);
    const right = await new Client(server.app).signIn(' Jane.Doe@Example.com ', TEST_PASSWORD);
    expect(right).toMatchObject({ status: 200, body: { user: { email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' } } });
  });

  it('Create Account answers every address alike, with no session and no account; the emailed link makes the account, names it and signs in', async () => {
    const client = new Client(server.app);
    const made = await client.signIn('sam@example.com', TEST_PASSWORD, 'signup', 'Samantha Q');
    expect(made).toMatchObject({ status: 200, body: { checkEmail: true } });
    expect(made.body.user).toBeUndefined();
    expect(client.cookie).toBeUndefined();
    expect(await accounts('sam@example.com')).toBe(0);
    // Nothing can sign in before the link is used.
    expect((await new Client(server.app).signIn('sam@example.com', TEST_PASSWORD)).status).toBe(401);
    const confirmed = await client.confirmSignUp('sam@example.com');
    expect(confirmed!.body.user).toEqual({
      email: 'sam@example.com',
      name: 'Samantha Q',
      role: 'user',
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect((await client.request('GET', '/api/session')).body.user.email).toBe('sam@example.com');
    expect((await client.request('GET', '/api/account')).body.emailVerified).toBe(true);
    const thief = new Client(server.app);
    const again = await thief.signIn('sam@example.com', 'another-long-passphrase', 'signup', 'Thief Person');
    expect(again).toEqual(expect.objectContaining({ status: made.status, body: made.body }));
    expect(thief.cookie).toBeUndefined();
    expect((await new Client(server.app).signIn('sam@example.com', 'another-long-passphrase')).status).toBe(401);
  });

  it('Create Account does the same work for a known address and a new one: one derivation each, one answer', async () => {
    await new Client(server.app).join('kept@example.com');
    const answers = [];
    for (const email of ['kept@example.com', 'fresh@example.com']) {
      const before = derivationCount();
      answers.push(await new Client(server.app).signIn(email, 'a-long-new-passphrase', 'signup', `Same Work ${answers.length + 1}`));
      expect(derivationCount() - before, email).toBe(1);
    }
    expect(answers[0]).toEqual(expect.objectContaining({ status: answers[1]!.status, body: answers[1]!.body }));
    expect(answers.every((answer) => answer.headers['set-cookie'] === undefined)).toBe(true);
  });

  it('a sign-up’s link needs the password chosen at Create Account: without it, or with another, no account is made and the link keeps working', async () => {
    const owner = new Client(server.app);
    await owner.signIn('pat@example.com', TEST_PASSWORD, 'signup', 'Pat Owner');
    const token = await signUpToken(server.db, 'pat@example.com');
    expect(await owner.request('POST', '/api/email/confirm', { token })).toMatchObject({
      status: 403,
      body: { error: { code: 'wrong_password', message: SIGN_UP_PASSWORD_NOTE } },
    });
    expect(await owner.request('POST', '/api/email/confirm', { token, password: 'not-the-chosen-passphrase' })).toMatchObject({
      status: 403,
      body: { error: { code: 'wrong_password', message: SIGN_UP_PASSWORD_WRONG_MESSAGE } },
    });
    expect(owner.cookie).toBeUndefined();
    expect(await accounts('pat@example.com')).toBe(0);
    const made = await owner.request('POST', '/api/email/confirm', { token, password: TEST_PASSWORD });
    expect(made).toMatchObject({ status: 200, body: { user: { email: 'pat@example.com', name: 'Pat Owner' } } });
  });

  it('a sign-up someone else asked for with their password: the address’s owner following its link with their own makes no account', async () => {
    await new Client(server.app).signIn('victim@example.com', 'the-attackers-own-passphrase', 'signup', 'Not The Victim');
    const token = await signUpToken(server.db, 'victim@example.com');
    const victim = new Client(server.app);
    expect(await victim.request('POST', '/api/email/confirm', { token, password: 'the-victims-own-passphrase' })).toMatchObject({
      status: 403,
      body: { error: { code: 'wrong_password' } },
    });
    expect(victim.cookie).toBeUndefined();
    expect(await accounts('victim@example.com')).toBe(0);
  });

  it('wrong passwords at a sign-up’s link count as Sign In’s (this email from this address): past the limit even the right one waits', async () => {
    await new Client(server.app).signIn('guessed@example.com', TEST_PASSWORD, 'signup', 'Guessed Link');
    const token = await signUpToken(server.db, 'guessed@example.com');
    const guesser = new Client(server.app);
    // Create Account counted once already (limit: three).
    for (let i = 0; i < 2; i++)
      expect((await guesser.request('POST', '/api/email/confirm', { token, password: `wrong-guess-${i}-passphrase` })).status).toBe(403);
    expect(await guesser.request('POST', '/api/email/confirm', { token, password: TEST_PASSWORD })).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limited' } },
    });
    expect(await accounts('guessed@example.com')).toBe(0);
  });

  it('a sign-up’s name taken before its link is used: the link asks for another name and keeps working; it expires after 24 hours', async () => {
    const late = new Client(server.app);
    await late.signIn('late@example.com', TEST_PASSWORD, 'signup', 'Quick Name');
    await new Client(server.app).join('quick@example.com', TEST_PASSWORD, 'Quick Name');
    const token = await signUpToken(server.db, 'late@example.com');
    const taken = await late.request('POST', '/api/email/confirm', { token, password: TEST_PASSWORD });
    expect(taken).toMatchObject({ status: 409, body: { error: { code: 'name_taken' } } });
    expect(await accounts('late@example.com')).toBe(0);
    const renamed = await late.request('POST', '/api/email/confirm', { token, name: 'Slower Name', password: TEST_PASSWORD });
    expect(renamed).toMatchObject({ status: 200, body: { user: { email: 'late@example.com', name: 'Slower Name' } } });

    await new Client(server.app).signIn('expired@example.com', TEST_PASSWORD, 'signup', 'Expired Link');
    const old = await signUpToken(server.db, 'expired@example.com');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60_000 + 60_000 });
    try {
      expect(await new Client(server.app).request('POST', '/api/email/confirm', { token: old, password: TEST_PASSWORD })).toMatchObject({
        status: 410,
        body: { error: { code: 'link_expired' } },
      });
    } finally {
      vi.useRealTimers();
    }
    expect(await accounts('expired@example.com')).toBe(0);
  });

  it('Forgot password answers in the same time for a known address and an unknown one (medians within 50 ms)', async () => {
    await new Client(server.app).join('forgetful@example.com');
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    // Alternated, each from its own address (the per-address limits are not what is measured).
    for (let round = 0; round < 7; round += 1)
      for (const kind of ['known', 'unknown'] as const) {
        const client = new Client(server.app, `192.0.2.${round * 2 + (kind === 'known' ? 1 : 2)}`);
        const started = performance.now();
        const answer = await client.request('POST', '/api/password/forgot', {
          email: kind === 'known' ? 'forgetful@example.com' : `nobody-${round}@example.com`,
        });
        times[kind].push(performance.now() - started);
        expect(answer.status).toBe(202);
        // The known address's email is queued after the answer: let that work end before the next
        // request is timed (on a busy machine it fell into the unknown address's time). At most
        // three reset emails a half hour are queued; past them the work is a lookup and a count.
        if (kind === 'known')
          await expect
            .poll(async () => {
              const [row] = await server.db.query<{ n: unknown }>(
                `SELECT count(*) AS n FROM mail_outbox WHERE to_email = 'forgetful@example.com' AND kind = 'reset'`,
              );
              return Number(row?.n ?? 0);
            })
            .toBe(Math.min(round + 1, 3));
      }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(50);
  });

  it('a new password needs 10 characters and must not be a common one; the message names the rule; nothing is made', async () => {
    const short = await new Client(server.app).signIn('short@example.com', 'x', 'signup', 'Short Pw');
    expect(short).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid', message: 'Use at least 10 characters for your password.' } },
    });
    for (const common of ['password123', 'qwertyuiop', '1234567890', 'iloveyou12', 'Password1!']) {
      const answer = await new Client(server.app).signIn(
        `common-${common.length}-${common.charCodeAt(0)}@example.com`,
        common,
        'signup',
        'Common Pw',
      );
      expect(answer.status, common).toBe(400);
      expect(answer.body.error.message, common).toMatch(/^This password is one that many people use/);
    }
    // What the member's own email gives away is as common as a list's.
    const own = await new Client(server.app).signIn('maria.lopez1987@example.com', 'maria.lopez1987', 'signup', 'Maria L');
    expect(own.status).toBe(400);
    expect(await accounts('short@example.com')).toBe(0);
    expect((await server.db.query(`SELECT 1 FROM users WHERE email LIKE 'common-%'`)).length).toBe(0);
    expect(await accounts('maria.lopez1987@example.com')).toBe(0);
  });

  it('an existing account keeps its old, short password', async () => {
    await createUser(server.db, {
      email: 'old-short@example.com',
      name: 'Old Short',
      role: 'user',
      passwordHash: await hashPassword('pw'),
    });
    expect((await new Client(server.app).signIn('old-short@example.com', 'pw')).status).toBe(200);
  });

  it('the admin address can never be signed up for or claimed; its password gives the admin role', async () => {
    const claims = [
      await new Client(server.app).signIn(ADMIN_EMAIL, 'a-guess-at-the-admin'),
      await new Client(server.app).signIn(` ${ADMIN_EMAIL.toUpperCase()} `, 'a-guess-at-the-admin', 'signup', 'Fake Chief'),
    ];
    expect(claims.map((answer) => answer.status)).toEqual([401, 200]);
    // The sign-up is told "check your email", with no session and no user.
    expect(claims[1]!.body).toEqual({ checkEmail: true });
    expect(claims[1]!.headers['set-cookie']).toBeUndefined();
    const admin = await new Client(server.app).signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(admin.body.user.role).toBe('admin');
  });

  it('keeps the session in an HttpOnly SameSite=Strict cookie stored hashed, and sign-out revokes it', async () => {
    const client = new Client(server.app);
    const answer = await client.join('cookie@example.com');
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
    await client.join('offline-out@example.com');
    const left = client.cookie;
    expect((await client.join('next-member@example.com')).status).toBe(200);
    expect(client.cookie).not.toBe(left);
    const replay = new Client(server.app);
    replay.cookie = left;
    expect((await replay.request('GET', '/api/session')).body.error).toEqual({ code: 'signed_out', message: 'Please sign in again.' });
    expect((await client.request('GET', '/api/session')).body.user.email).toBe('next-member@example.com');
  });

  it('limits wrong passwords per email and address with a readable wait', async () => {
    await new Client(server.app).join('limited@example.com');
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1)
      statuses.push(await new Client(server.app).signIn('limited@example.com', `guess-number-${attempt}`));
    expect(statuses.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(statuses[3]!.body.error).toEqual({ code: 'rate_limited', message: 'Too many attempts. Try again in 10 minutes.' });
    expect(Number(statuses[3]!.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('refuses writes without this server as Origin', async () => {
    const client = new Client(server.app);
    const body = { mode: 'signin', email: 'x@example.com', password: TEST_PASSWORD };
    for (const origin of ['https://evil.example', 'null', 'http://localhost:81']) {
      const answer = await client.request('POST', '/api/session', body, { origin });
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'bad_origin' } } });
    }
    const response = await server.app.inject({ method: 'POST', url: '/api/session', payload: body });
    expect(response.statusCode).toBe(403);
  });
});

describe.each(BACKENDS)('new accounts per client address on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend, { memberLimits: DEFAULT_LIMITS });
  });
  afterAll(() => server.close());

  it('a fourth Create Account from one address within the hour is told to slow down; another address is not', async () => {
    // Issue 59: five accounts in ten seconds from one address, each liking one post 50 times.
    const answers = [];
    for (let index = 1; index <= 4; index += 1)
      answers.push(
        await new Client(server.app, '203.0.113.50').signIn(`burst${index}@example.com`, TEST_PASSWORD, 'signup', `Burst ${index}`),
      );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]!.body.error).toEqual({ code: 'slow_down', message: 'You are doing that too often. Try again in 20 minutes.' });
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(1000);
    const elsewhere = await new Client(server.app, '198.51.100.60').signIn('burst5@example.com', TEST_PASSWORD, 'signup', 'Burst 5');
    expect(elsewhere.status).toBe(200);
  });

  it('a refused Create Account (a short or common password) takes none of the address’s three: a valid one after three still goes', async () => {
    const client = () => new Client(server.app, '203.0.113.70');
    const refused = [
      await client().signIn('typo@example.com', 'short', 'signup', 'Typo Pw'),
      await client().signIn('typo@example.com', 'password123', 'signup', 'Typo Pw'),
      await client().signIn('typo@example.com', 'typo@example.com', 'signup', 'Typo Pw'),
    ];
    expect(refused.map((answer) => [answer.status, answer.body.error.code])).toEqual([
      [400, 'invalid'],
      [400, 'invalid'],
      [400, 'invalid'],
    ]);
    expect(await client().signIn('typo@example.com', TEST_PASSWORD, 'signup', 'Typo Pw')).toMatchObject({
      status: 200,
      body: { checkEmail: true },
    });
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
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 429]);
    expect(answers[2]!.body.error.message).toBe('Too many attempts. Try again in 1 minute.');
  });
});

describe('fair hashing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite', { limits: { perAddress: { max: 1000, windowMs: 60_000 } } });
  });
  afterAll(() => server.close());

  it('16 parallel sign-ins from one address never make another member’s correct sign-in wait more than 2 s', async () => {
    await new Client(server.app, '198.51.100.7').join('owner@example.com');
    // One derivation on this machine now (CI's 2 cores are slower than a desk's): the old single queue
    // made the owner wait for all sixteen (8 rounds of 2), a fair one for at most the 2 running.
    const one = performance.now();
    await hashPassword('a-derivation-to-time');
    const derivation = performance.now() - one;
    const attacker = '203.0.113.9';
    const burst = Array.from({ length: 16 }, (_, index) =>
      new Client(server.app, attacker).signIn(`burst-${index}@example.com`, `burst-guess-${index}`),
    );
    // The owner asks once the burst is queued: the first two derivations are running, fourteen wait.
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    const owner = await new Client(server.app, '198.51.100.7').signIn('owner@example.com', TEST_PASSWORD);
    const waited = performance.now() - started;
    expect(owner.status).toBe(200);
    // The bound is 2 s (bench/results.md measures it on an idle machine); under a loaded test
    // run the same fairness is at most the running derivations and the owner's own, far below 8 rounds.
    expect(waited).toBeLessThan(Math.max(2000, 4 * derivation));
    expect((await Promise.all(burst)).every((answer) => answer.status === 401)).toBe(true);
  });
});
