// Single sign-on (issue 63), on PGlite and PostgreSQL, against a real OpenID provider run in-process
// on 127.0.0.1 (tests/support/oidc-provider.ts), never a mock of the client: the first sign-in makes
// the account, a taken name is offered with a number, an existing password account is linked only
// after its password, the groups claim puts the member in groups and out again (with the private
// posts), a member the provider no longer knows is signed out of every device at the next check,
// OIDC_ONLY keeps members to the provider; and item 5's attacks, each refused with a readable error:
// a replayed state, another nonce, a code from another provider (mix-up), an ID token for another
// audience or expired, a reused code, and the sign-in limits.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConfig } from '../../../../server/config';
import { createUser } from '../../../../server/db/members/accounts';
import { hashPassword } from '../../../../server/lib/passwords';
import { safeReturn } from '../../../../server/routes/api/oidc';
import { ERRORS, type WireErrorCode } from '../../../../src/shared/errors';
import {
  CookieJar,
  followRedirects,
  signInAtProvider,
  startProvider,
  type ProviderAccount,
  type TestProvider,
} from '../../../support/oidc-provider';
import { testServer, type TestServer } from '../../support/app';
import { Client, ORIGIN, reviewOp, signedIn, TEST_PASSWORD, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';

/** The forum's redirect URI, as URLs write it (inject's origin names port 80). */
const REDIRECT = new URL('/api/oidc/callback', ORIGIN).href;
const CLIENT = { clientId: 'forum', clientSecret: 'forum-secret-for-tests', redirectUris: [REDIRECT] };
const PORT = 4605;
const OTHER_PORT = 4606;

/** A browser: the forum's cookies (through inject) and the provider's (over HTTP). */
class Browser {
  readonly cookies = new Map<string, string>();
  readonly provider = new CookieJar();
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  async request(method: 'GET' | 'POST', path: string, payload?: unknown) {
    const response = await this.app.inject({
      method,
      url: path,
      remoteAddress: this.remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: {
        ...(method === 'GET' ? {} : { origin: ORIGIN }),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
      },
    });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = !cookie.value || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return {
      status: response.statusCode,
      location: String(response.headers.location ?? ''),
      body: response.body ? safeJson(response.body) : undefined,
    };
  }

  /** GET /api/oidc/start: the provider's authorization URL. */
  async start(query = ''): Promise<string> {
    const started = await this.request('GET', `/api/oidc/start${query}`);
    expect(started.status).toBe(302);
    return started.location;
  }

  /** Delivers the provider's redirect to the forum's callback; returns where the forum sends the browser. */
  async callback(url: string): Promise<string> {
    const { pathname, search } = new URL(url);
    const done = await this.request('GET', `${pathname}${search}`);
    expect(done.status).toBe(302);
    return done.location;
  }

  /** The whole sign-in: the forum, the provider's page with `email`, back to the forum. */
  async signIn(email: string, query = ''): Promise<string> {
    return this.callback(await signInAtProvider(this.provider, await this.start(query), email, REDIRECT));
  }

  async me() {
    return this.request('GET', '/api/session');
  }

  /** A test client on this browser's session (pushes and pulls). */
  client(): Client {
    const client = new Client(this.app);
    client.cookie = `ie_session=${this.cookies.get('ie_session')}`;
    return client;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer's body, read as the tests need
function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The redirect of a refused sign-in, whose code has a sentence a person reads. */
function refusedWith(location: string, code: WireErrorCode) {
  expect(location).toBe(`/login?sso=error&code=${code}`);
  expect(ERRORS[code].message.length).toBeGreaterThan(20);
}

const account = (sub: string, extra: Partial<ProviderAccount> = {}): ProviderAccount => ({
  sub,
  email: `${sub}@example.org`,
  emailVerified: true,
  name: `${sub[0]!.toUpperCase()}${sub.slice(1)} Tester`,
  ...extra,
});

let provider: TestProvider;
let other: TestProvider;
beforeAll(async () => {
  provider = await startProvider({ port: PORT, clients: [CLIENT] });
  other = await startProvider({ port: OTHER_PORT, clients: [CLIENT] });
});
afterAll(async () => {
  await provider?.close();
  await other?.close();
});

it('the return path stays inside the app', () => {
  expect(safeReturn('/posts/5?tab=replies')).toBe('/posts/5?tab=replies');
  for (const outside of [
    '//evil.example/x',
    'https://evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '/api/session',
    undefined,
    5,
  ])
    expect(safeReturn(outside)).toBe('/');
});

it('the redirect URI follows PUBLIC_ORIGIN (the one registered at the provider), whatever name the request came by', async () => {
  const oidc: OidcConfig = {
    issuer: provider.issuer,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    label: 'Acme',
    only: false,
    recheckMs: 3_600_000,
  };
  const server = await testServer('pglite', { oidc, hosts: { publicOrigins: ['https://forum.example.com'] } });
  try {
    const start = await new Client(server.app).request('GET', '/api/oidc/start');
    expect(start.status).toBe(302);
    expect(new URL(String(start.headers.location)).searchParams.get('redirect_uri')).toBe('https://forum.example.com/api/oidc/callback');
  } finally {
    await server.close();
  }
});

describe.each(BACKENDS)('single sign-on on %s', (backend) => {
  let server: TestServer;
  let oidc: OidcConfig;
  const logs: string[] = [];
  /** The last refusal's logged reason. */
  const lastReason = () => logs.filter((line) => line.startsWith('single sign-on refused')).at(-1);
  const run = randomUUID().slice(0, 6);
  /** A provider account of this run (each backend's accounts are its own). */
  const person = (name: string, extra: Partial<ProviderAccount> = {}) => {
    const made = account(`${name}${run}`, extra);
    provider.addAccount(made);
    other.addAccount(made);
    return made;
  };
  const userRow = async (email: string) =>
    (await server.db.query<Record<string, unknown>>('SELECT * FROM users WHERE email = $1', [email]))[0];

  beforeAll(async () => {
    oidc = {
      issuer: provider.issuer,
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      label: 'Acme',
      groupsClaim: 'groups',
      only: false,
      recheckMs: 60 * 60_000,
    };
    server = await testServer(backend, {
      oidc,
      // The reason each refusal was logged with (never shown to the member).
      logger: { level: 'warn', stream: { write: (line: string) => void logs.push(String(JSON.parse(line).msg)) } },
      limits: { perEmailAndAddress: { max: 10, windowMs: 60_000 }, perAddress: { max: 10_000, windowMs: 60_000 } },
    });
  });
  afterAll(() => server?.close());

  it('GET /api/auth/methods names the provider', async () => {
    expect((await new Browser(server.app).request('GET', '/api/auth/methods')).body).toEqual({
      sso: { label: 'Acme' },
      ssoOnly: false,
      passkeys: true,
    });
  });

  it('a first sign-in makes the member from the verified email and name, linked; the next one signs in to it', async () => {
    const ann = person('ann');
    const browser = new Browser(server.app);
    expect(await browser.signIn(ann.email, '?return=/posts/7')).toBe('/login?sso=done&return=%2Fposts%2F7');
    expect((await browser.me()).body.user).toMatchObject({ email: ann.email, name: ann.name, role: 'user' });
    const row = await userRow(ann.email);
    expect(row).toMatchObject({ oidc_subject: `${provider.issuer} ${ann.sub}` });
    expect(row!.oidc_refresh_token).toEqual(expect.any(String));
    expect(row!.email_verified_at).not.toBeNull();
    // No password signs in to it.
    expect((await new Client(server.app).signIn(ann.email, TEST_PASSWORD)).status).toBe(401);
    const tablet = new Browser(server.app);
    expect(await tablet.signIn(ann.email)).toBe('/login?sso=done');
    expect((await tablet.me()).body.user.email).toBe(ann.email);
    expect(await server.db.query('SELECT 1 FROM users WHERE email = $1', [ann.email])).toHaveLength(1);
  });

  it('a taken name is offered with a number, to accept or change; the name rules apply', async () => {
    const name = `Bob Builder ${run}`;
    await createUser(server.db, { email: `bob.elsewhere.${run}@example.com`, name, role: 'user', passwordHash: '' });
    const bob = person('bob', { name });
    const browser = new Browser(server.app);
    expect(await browser.signIn(bob.email)).toBe('/login?sso=name');
    expect((await browser.me()).status).toBe(401);
    expect((await browser.request('GET', '/api/oidc/pending')).body).toEqual({
      kind: 'name',
      email: bob.email,
      suggestedName: `${name} 2`,
    });
    expect((await browser.request('POST', '/api/oidc/finish', { name })).body.error.code).toBe('name_taken');
    expect((await browser.request('POST', '/api/oidc/finish', { name: 'Admin' })).body.error.code).toBe('invalid');
    const made = await browser.request('POST', '/api/oidc/finish', { name: `${name} 2` });
    expect(made.body.user).toMatchObject({ email: bob.email, name: `${name} 2` });
    expect((await browser.me()).body.user.name).toBe(`${name} 2`);
    // Used up.
    expect((await browser.request('POST', '/api/oidc/finish', { name: `${name} 3` })).body.error.code).toBe('sso_failed');
  });

  it('an existing password account is linked only after its password, from the browser that came back from the provider', async () => {
    const cara = person('cara');
    await signedIn(server.app, cara.email);
    const browser = new Browser(server.app);
    expect(await browser.signIn(cara.email)).toBe('/login?sso=link');
    expect((await browser.me()).status).toBe(401);
    expect((await browser.request('GET', '/api/oidc/pending')).body).toEqual({ kind: 'link', email: cara.email });
    // A wrong password, or the right one from another browser, links nothing.
    expect(
      (await browser.request('POST', '/api/session', { mode: 'signin', email: cara.email, password: 'wrong-password-1' })).status,
    ).toBe(401);
    expect((await new Client(server.app).signIn(cara.email)).body.ssoLinked).toBeUndefined();
    expect((await userRow(cara.email))!.oidc_subject).toBeNull();
    const signedInWithPassword = await browser.request('POST', '/api/session', {
      mode: 'signin',
      email: cara.email,
      password: TEST_PASSWORD,
    });
    expect(signedInWithPassword.body).toMatchObject({ user: { email: cara.email }, ssoLinked: true });
    expect((await userRow(cara.email))!.oidc_subject).toBe(`${provider.issuer} ${cara.sub}`);
    expect(await new Browser(server.app).signIn(cara.email)).toBe('/login?sso=done');
  });

  it('an account made by the organisation has no password: its email is not changed here, and a sign-in within ten minutes confirms Delete my account', async () => {
    const dee = person('dee');
    const browser = new Browser(server.app);
    expect(await browser.signIn(dee.email)).toBe('/login?sso=done');
    expect((await browser.request('GET', '/api/account')).body).toMatchObject({ email: dee.email, hasPassword: false, recentSignIn: true });
    // Change email: refused with its own sentence, whatever password is sent.
    const change = await browser.request('POST', '/api/account/email', { email: `moved${run}@example.org`, password: TEST_PASSWORD });
    expect(change).toMatchObject({
      status: 403,
      body: { error: { code: 'email_from_organisation', message: ERRORS.email_from_organisation.message } },
    });
    expect(await server.db.query('SELECT 1 FROM mail_outbox WHERE to_email = $1', [`moved${run}@example.org`])).toEqual([]);

    // The sign-in is older than ten minutes: no deletion without a fresh one (a password would not do either).
    const row = await userRow(dee.email);
    await server.db.query(`UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE user_id = $1`, [row!.id]);
    expect((await browser.request('GET', '/api/account')).body.recentSignIn).toBe(false);
    for (const body of [{ keepContent: true }, { password: TEST_PASSWORD, keepContent: true }]) {
      const refused = await browser.request('POST', '/api/account/delete', body);
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'sign_in_again', message: ERRORS.sign_in_again.message } } });
    }
    expect((await browser.me()).body.user.email).toBe(dee.email);

    // Profile's "Sign in again" is a confirmation (confirm=1): the provider, which would answer a
    // plain sign-in from the session it has in this browser, is asked to authenticate again (max_age=0).
    expect((await followRedirects(browser.provider, await browser.start(), REDIRECT)).url.startsWith(REDIRECT)).toBe(true);
    const asked = await browser.start('?confirm=1');
    expect(new URL(asked).searchParams.get('max_age')).toBe('0');
    expect(new URL(await browser.start()).searchParams.has('max_age')).toBe(false);
    expect((await followRedirects(browser.provider, asked, REDIRECT)).url.startsWith(REDIRECT)).toBe(false);
    // Signed in again with the organisation (the same browser): deleted without a password.
    expect(await browser.signIn(dee.email, '?return=%2Fprofile%3Fdelete%3Dconfirm&confirm=1')).toBe(
      '/login?sso=done&return=%2Fprofile%3Fdelete%3Dconfirm',
    );
    expect((await browser.request('GET', '/api/account')).body.recentSignIn).toBe(true);
    const deleted = await browser.request('POST', '/api/account/delete', { keepContent: false });
    expect(deleted).toMatchObject({ status: 200, body: { message: expect.stringContaining('deleted') } });
    expect((await browser.me()).body.error.code).toBe('account_deleted');
    expect(await userRow(dee.email)).toBeUndefined();
  });

  it('a password account still confirms with its password: a fresh sign-in alone deletes nothing, and its email changes as before', async () => {
    const eve = person('eve');
    const member = await signedIn(server.app, eve.email);
    expect((await member.request('GET', '/api/account')).body).toMatchObject({ hasPassword: true, recentSignIn: true });
    expect((await member.request('POST', '/api/account/delete', { keepContent: true })).body.error.code).toBe('wrong_password');
    expect((await member.request('POST', '/api/account/delete', { password: 'not-my-password', keepContent: true })).body.error.code).toBe(
      'wrong_password',
    );
    const change = await member.request('POST', '/api/account/email', { email: `eve.moved${run}@example.org`, password: TEST_PASSWORD });
    expect(change.status).toBe(202);
    expect((await member.request('POST', '/api/account/delete', { password: TEST_PASSWORD, keepContent: true })).status).toBe(200);
  });

  it('the groups claim puts the member in the groups of those names and takes them out of those it no longer lists; private posts follow', async () => {
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const [research, field, room] = [randomUUID(), randomUUID(), randomUUID()];
    const applied = (answer: Answer) => expect(answer.body.results[0], JSON.stringify(answer.body)).toMatchObject({ status: 'applied' });
    applied(await admin.push({ id: randomUUID(), type: 'createGroup', groupId: research, name: `Research ${run}` } as never));
    applied(await admin.push({ id: randomUUID(), type: 'createGroup', groupId: field, name: `Field ${run}` } as never));
    applied(
      await admin.push({
        id: randomUUID(),
        type: 'createCategory',
        categoryId: room,
        name: `Lab ${run}`,
        position: 7,
        see: [research],
        post: null,
      } as never),
    );
    const secret = await admin.createPost('Lab notes for the research group', { category: room });
    applied(await admin.push(reviewOp(secret)));
    const groupsBefore = (await server.db.query('SELECT 1 FROM groups')).length;

    const dan = person('dan', { groups: [`research ${run}`, 'No Such Group'] });
    const browser = new Browser(server.app);
    expect(await browser.signIn(dan.email)).toBe('/login?sso=done');
    const membership = async (group: string) =>
      (
        await server.db.query<{ in_group: boolean; source: string | null }>(
          'SELECT in_group, source FROM group_members m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.group_id = $2',
          [dan.email, group],
        )
      )[0];
    expect(await membership(research)).toEqual({ in_group: true, source: 'claim' });
    expect((await server.db.query('SELECT 1 FROM groups')).length).toBe(groupsBefore);
    const ids = async () => ((await browser.client().pull()).body.posts as { id: number }[]).map((post) => post.id);
    expect(await ids()).toContain(secret);
    // An admin's membership is the admin's: the claim never takes it away.
    const memberId = String((await userRow(dan.email))!.member_id);
    applied(await admin.push({ id: randomUUID(), type: 'addGroupMember', groupId: field, memberId } as never));

    provider.setGroups(dan.sub, []);
    expect(await new Browser(server.app).signIn(dan.email)).toBe('/login?sso=done');
    expect(await membership(research)).toMatchObject({ in_group: false });
    expect(await membership(field)).toEqual({ in_group: true, source: null });
    expect(await ids()).not.toContain(secret);

    // Listed again, and an admin takes Dan out: the admin's removal stands at his next sign-in; an admin's Add puts him back.
    provider.setGroups(dan.sub, [`research ${run}`]);
    expect(await new Browser(server.app).signIn(dan.email)).toBe('/login?sso=done');
    expect(await membership(research)).toEqual({ in_group: true, source: 'claim' });
    applied(await admin.push({ id: randomUUID(), type: 'removeGroupMember', groupId: research, memberId } as never));
    expect(await new Browser(server.app).signIn(dan.email)).toBe('/login?sso=done');
    expect(await membership(research)).toEqual({ in_group: false, source: 'admin' });
    expect(await ids()).not.toContain(secret);
    applied(await admin.push({ id: randomUUID(), type: 'addGroupMember', groupId: research, memberId } as never));
    expect(await membership(research)).toEqual({ in_group: true, source: null });
    expect(await ids()).toContain(secret);
  });

  it('a member the provider no longer knows is signed out of every device at the next check; one it knows stays', async () => {
    const eve = person('eve');
    const [phone, tablet] = [new Browser(server.app), new Browser(server.app)];
    expect(await phone.signIn(eve.email)).toBe('/login?sso=done');
    expect(await tablet.signIn(eve.email)).toBe('/login?sso=done');
    const due = () =>
      server.db.query('UPDATE users SET oidc_checked_at = $2 WHERE email = $1', [eve.email, Date.now() - oidc.recheckMs - 1]);
    // Still known: checked, and signed in.
    await due();
    expect((await phone.me()).status).toBe(200);
    expect(Number((await userRow(eve.email))!.oidc_checked_at)).toBeGreaterThan(Date.now() - 60_000);
    // Gone at the provider: not before the check is due, then every device.
    provider.removeAccount(eve.sub);
    expect((await phone.me()).status).toBe(200);
    await due();
    const phoneAnswer = await phone.me();
    expect(phoneAnswer).toMatchObject({ status: 401, body: { error: { code: 'sso_removed', message: ERRORS.sso_removed.message } } });
    expect((await tablet.me()).body.error.code).toBe('sso_removed');
    expect((await userRow(eve.email))!.oidc_refresh_token).toBeNull();
  });

  it('a provider that cannot answer the check decides nothing: the member stays signed in, and it is asked again in minutes', async () => {
    const fia = person('fia');
    const phone = new Browser(server.app);
    expect(await phone.signIn(fia.email)).toBe('/login?sso=done');
    const dueAt = Date.now() - oidc.recheckMs - 1;
    await server.db.query('UPDATE users SET oidc_checked_at = $2 WHERE email = $1', [fia.email, dueAt]);
    provider.setDown(true);
    try {
      expect((await phone.me()).status).toBe(200);
      // Asked again soon (minutes), not at once at every request and not a whole period later.
      const checkedAt = Number((await userRow(fia.email))!.oidc_checked_at);
      expect(checkedAt).toBeGreaterThan(dueAt);
      expect(checkedAt).toBeLessThan(Date.now() - oidc.recheckMs + 10 * 60_000);
      expect((await phone.me()).status).toBe(200);
      expect(Number((await userRow(fia.email))!.oidc_checked_at)).toBe(checkedAt);
    } finally {
      provider.setDown(false);
    }
    // The provider back, the next due check vouches for the member again.
    await server.db.query('UPDATE users SET oidc_checked_at = $2 WHERE email = $1', [fia.email, dueAt]);
    expect((await phone.me()).status).toBe(200);
    expect(Number((await userRow(fia.email))!.oidc_checked_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a linked member with two-step verification on is asked for a code; a stopped one is told why; an unverified email is refused', async () => {
    const fay = person('fay');
    expect(await new Browser(server.app).signIn(fay.email)).toBe('/login?sso=done');
    await server.db.query('UPDATE users SET totp_enabled_at = $2 WHERE email = $1', [fay.email, Date.now()]);
    const browser = new Browser(server.app);
    expect(await browser.signIn(fay.email)).toBe('/login?step=code');
    expect(browser.cookies.get('ie_two_step')).toEqual(expect.any(String));
    expect((await browser.me()).status).toBe(401);

    await server.db.query('UPDATE users SET closed_at = $2 WHERE email = $1', [fay.email, Date.now()]);
    refusedWith(await new Browser(server.app).signIn(fay.email), 'account_closed');

    const gus = person('gus', { emailVerified: false });
    refusedWith(await new Browser(server.app).signIn(gus.email), 'sso_email_unverified');
    expect(await userRow(gus.email)).toBeUndefined();
  });

  it("Entra ID's verified domain (xms_edov, with no email_verified) counts as a verified email; xms_edov false does not", async () => {
    const kit = person('kit', { emailVerified: false });
    try {
      provider.alterIdTokens((claims) => ({ ...claims, email_verified: undefined, xms_edov: false }));
      refusedWith(await new Browser(server.app).signIn(kit.email), 'sso_email_unverified');
      provider.alterIdTokens((claims) => ({ ...claims, email_verified: undefined, xms_edov: true }));
      expect(await new Browser(server.app).signIn(kit.email)).toBe('/login?sso=done');
    } finally {
      provider.alterIdTokens(null);
    }
    expect((await userRow(kit.email))!.email_verified_at).not.toBeNull();
  });

  describe('refuses, with a readable error', () => {
    it('a replayed state (the callback used twice)', async () => {
      const hal = person('hal');
      const browser = new Browser(server.app);
      const binding = async () => {
        const url = await browser.start();
        return { url, cookie: browser.cookies.get('ie_oidc')! };
      };
      const { url, cookie } = await binding();
      const callback = await signInAtProvider(browser.provider, url, hal.email, REDIRECT);
      expect(await browser.callback(callback)).toBe('/login?sso=done');
      browser.cookies.set('ie_oidc', cookie);
      refusedWith(await browser.callback(callback), 'sso_failed');
      // A callback in a browser that never started a sign-in.
      refusedWith(await new Browser(server.app).callback(callback), 'sso_failed');
    });

    it('an ID token with another nonce, for another audience, or expired', async () => {
      const ida = person('ida');
      const changes: [(claims: Record<string, unknown>) => Record<string, unknown>, RegExp][] = [
        [(claims) => ({ ...claims, nonce: 'another-sign-in' }), /"nonce" claim/],
        [(claims) => ({ ...claims, aud: 'another-client' }), /"aud" \(audience\)/],
        [(claims) => ({ ...claims, iat: 1_000_000, exp: 1_000_600 }), /"exp" \(expiration time\)/],
      ];
      try {
        for (const [change, reason] of changes) {
          provider.alterIdTokens(change);
          const browser = new Browser(server.app);
          refusedWith(await browser.signIn(ida.email), 'sso_failed');
          expect(lastReason()).toMatch(reason);
          expect((await browser.me()).status).toBe(401);
        }
      } finally {
        provider.alterIdTokens(null);
      }
      expect(await userRow(ida.email)).toBeUndefined();
    });

    it('a code from another provider (mix-up)', async () => {
      const jo = person('jo');
      const browser = new Browser(server.app);
      const ours = new URL(await browser.start());
      // The same request, sent to the other provider, which knows a client of the same id.
      const theirs = new URL(`${ours.pathname}${ours.search}`, other.issuer);
      const callback = await signInAtProvider(browser.provider, theirs.href, jo.email, REDIRECT);
      expect(new URL(callback).searchParams.get('iss')).toBe(other.issuer);
      refusedWith(await browser.callback(callback), 'sso_failed');
      expect(lastReason()).toMatch(/"iss" \(issuer\) response parameter/);
      expect((await browser.me()).status).toBe(401);
    });

    it('a reused authorization code', async () => {
      const kim = person('kim');
      const first = new Browser(server.app);
      const used = await signInAtProvider(first.provider, await first.start(), kim.email, REDIRECT);
      expect(await first.callback(used)).toBe('/login?sso=done');
      // Another browser's sign-in, given the used code with its own state.
      const second = new Browser(server.app);
      const state = new URL(await second.start()).searchParams.get('state')!;
      const replayed = new URL(used);
      replayed.searchParams.set('state', state);
      refusedWith(await second.callback(replayed.href), 'sso_failed');
      expect(lastReason()).toMatch(/invalid_grant/);
      expect((await second.me()).status).toBe(401);
    });
  });
});

describe.each(BACKENDS)('OIDC_ONLY and the sign-in limits on %s', (backend) => {
  let server: TestServer;
  const run = randomUUID().slice(0, 6);

  beforeAll(async () => {
    server = await testServer(backend, {
      oidc: {
        issuer: provider.issuer,
        clientId: CLIENT.clientId,
        clientSecret: CLIENT.clientSecret,
        label: 'your organisation',
        only: true,
        recheckMs: 60 * 60_000,
      },
      limits: { perEmailAndAddress: { max: 10, windowMs: 60_000 }, perAddress: { max: 6, windowMs: 60_000 } },
    });
  });
  afterAll(() => server?.close());

  it('members sign in only through the provider (password sign-in, Create Account, reset and change refused); the admin keeps the password', async () => {
    const browser = new Browser(server.app, '10.1.0.1');
    expect((await browser.request('GET', '/api/auth/methods')).body).toMatchObject({ ssoOnly: true });
    const lee = account(`lee${run}`);
    provider.addAccount(lee);
    expect(await browser.signIn(lee.email)).toBe('/login?sso=done');
    const member = new Browser(server.app, '10.1.0.2');
    const refused = await member.request('POST', '/api/session', { mode: 'signin', email: lee.email, password: TEST_PASSWORD });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'sso_only', message: ERRORS.sso_only.message } } });
    const signUp = { mode: 'signup', email: `new${run}@example.org`, password: TEST_PASSWORD, name: `New ${run}` };
    expect((await member.request('POST', '/api/session', signUp)).body.error.code).toBe('sso_only');
    expect((await member.request('POST', '/api/password/forgot', { email: lee.email })).body.error.code).toBe('sso_only');
    expect(
      (await browser.request('POST', '/api/account/password', { current: 'x', password: 'a-new-long-passphrase' })).body.error.code,
    ).toBe('sso_only');
    const admin = new Browser(server.app, '10.1.0.3');
    expect((await admin.request('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(
      200,
    );
  });

  it('a member’s password still links their existing account, from the browser the provider sent back', async () => {
    const mo = account(`mo${run}`);
    provider.addAccount(mo);
    // An account from before OIDC_ONLY.
    await createUser(server.db, { email: mo.email, name: `Mo ${run}`, role: 'user', passwordHash: await hashPassword(TEST_PASSWORD) });
    const browser = new Browser(server.app, '10.1.0.4');
    expect(await browser.signIn(mo.email)).toBe('/login?sso=link');
    const linked = await browser.request('POST', '/api/session', { mode: 'signin', email: mo.email, password: TEST_PASSWORD });
    expect(linked.body).toMatchObject({ ssoLinked: true });
  });

  it('the sign-in limits hold /api/oidc/start and /api/oidc/callback per address', async () => {
    const browser = new Browser(server.app, '10.2.0.1');
    for (let attempt = 0; attempt < 6; attempt++) expect(new URL(await browser.start(), 'http://x').origin).not.toBe('http://x');
    const started = await browser.request('GET', '/api/oidc/start');
    refusedWith(started.location, 'rate_limited');
    refusedWith(await browser.callback(`${REDIRECT}?code=x&state=y`), 'rate_limited');
    // Another address is not held.
    expect(await new Browser(server.app, '10.2.0.2').start()).toMatch(/^http:\/\/127\.0\.0\.1:4605\//);
  });
});
