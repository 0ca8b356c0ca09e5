// Passkeys (issue 63): a member adds, lists and removes them, and anyone signs in with one, against
// a software authenticator (support/authenticator.ts) that signs real P-256 assertions. Refused,
// each with its code: a replayed challenge, another origin or rpID, a credential of another account
// presented with this member's user handle, a credential registered twice, a removed passkey, a
// suspended member, a member under OIDC_ONLY; and the sign-in limits hold passkeys too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client, memberWithSession, ORIGIN, signedIn, type Answer } from '../../support/client';
import { SoftAuthenticator } from '../../support/authenticator';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

/** The per-address sign-in limit of these servers: each case signs in from an address of its own. */
const PER_ADDRESS = 6;

/** A browser: its session (a Client) and the `ie_webauthn` cookie the options set. */
class Browser {
  readonly client: Client;
  private challenge?: string;

  constructor(app: FastifyInstance, address: string, client?: Client) {
    this.client = client ?? new Client(app, address);
  }

  async send(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<Answer> {
    const cookie = [this.client.cookie, this.challenge && `ie_webauthn=${this.challenge}`].filter(Boolean).join('; ');
    const answer = await this.client.request(method, url, payload, cookie ? { cookie } : {});
    const set = [answer.headers['set-cookie'] ?? []].flat().map(String);
    const held = set.find((line) => line.startsWith('ie_webauthn='));
    if (held) this.challenge = /^ie_webauthn=([^;]*)/.exec(held)![1] || undefined;
    return answer;
  }

  /** Adds a passkey made by `authenticator`; the answer of POST /api/passkeys/register. */
  async addPasskey(authenticator: SoftAuthenticator, name?: string): Promise<Answer> {
    const options = await this.send('POST', '/api/passkeys/register/options', {});
    expect(options.status).toBe(200);
    return this.send('POST', '/api/passkeys/register', { response: authenticator.register(options.body), ...(name ? { name } : {}) });
  }

  /** Signs in with `authenticator`'s newest passkey (its answer bent by `bend`). */
  async signIn(
    authenticator: SoftAuthenticator,
    bend: Parameters<SoftAuthenticator['assert']>[2] = {},
    credential = authenticator.credentials.at(-1)!,
  ) {
    const options = await this.send('POST', '/api/passkeys/login/options', {});
    expect(options.status).toBe(200);
    return this.send('POST', '/api/passkeys/login', { response: authenticator.assert(options.body, credential, bend) });
  }
}

describe.each(BACKENDS)('passkeys on %s', (backend) => {
  let server: TestServer;
  let address = 0;
  /** A client address no other case has used (each case's own sign-in limit). */
  const nextAddress = () => `10.63.0.${++address}`;
  beforeAll(async () => {
    server = await testServer(backend, { limits: { perAddress: { max: PER_ADDRESS, windowMs: 60_000 } } });
  });
  afterAll(() => server.close());

  const member = async (email: string) => new Browser(server.app, nextAddress(), await memberWithSession(server.app, server.db, email));
  const counterOf = async (id: string) =>
    Number((await server.db.query<{ counter: unknown }>('SELECT counter FROM passkeys WHERE id = $1', [id]))[0]?.counter);

  it('a member adds a passkey, lists it, signs in with it on another browser (the counter moves), and removes it: then it signs nobody in', async () => {
    const owner = await member('pat.key@example.com');
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await owner.send('POST', '/api/passkeys/register/options', {});
    expect(added.body).toMatchObject({
      rp: { id: 'localhost', name: 'Insight Exchange' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      attestation: 'none',
      excludeCredentials: [],
    });
    expect(added.headers['set-cookie']).toMatch(/ie_webauthn=[^;]+;.*Path=\/api\/passkeys/);
    expect(added.headers['set-cookie']).toMatch(/HttpOnly/);
    expect(added.headers['set-cookie']).toMatch(/SameSite=Strict/);
    const made = await owner.send('POST', '/api/passkeys/register', {
      response: authenticator.register(added.body),
      name: 'Work laptop',
    });
    expect(made).toMatchObject({ status: 200, body: { passkey: { name: 'Work laptop', lastUsedAt: null } } });
    const id = authenticator.credentials[0]!.id;
    // The next registration asks the authenticator not to make a second one for this account.
    expect((await owner.send('POST', '/api/passkeys/register/options', {})).body.excludeCredentials).toEqual([
      { id, type: 'public-key', transports: ['internal'] },
    ]);
    // Without a name: the browser and platform the request named.
    const second = new SoftAuthenticator(ORIGIN);
    const options = await owner.send('POST', '/api/passkeys/register/options', {});
    const named = await owner.client.request(
      'POST',
      '/api/passkeys/register',
      { response: second.register(options.body) },
      {
        cookie: `${owner.client.cookie}; ie_webauthn=${/ie_webauthn=([^;]+)/.exec(String(options.headers['set-cookie']))![1]}`,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      },
    );
    expect(named.body.passkey.name).toBe('Chrome on Linux');
    const listed = await owner.send('GET', '/api/passkeys');
    expect(listed.body.passkeys.map((passkey: { name: string }) => passkey.name)).toEqual(['Work laptop', 'Chrome on Linux']);
    expect(listed.body.passkeys[0]).toEqual({ id, name: 'Work laptop', createdAt: expect.any(Number), lastUsedAt: null });

    const laptop = new Browser(server.app, nextAddress());
    const signedIn = await laptop.signIn(authenticator, {}, authenticator.credentials[0]);
    expect(signedIn).toMatchObject({ status: 200, body: { user: { email: 'pat.key@example.com', role: 'user' } } });
    expect((await laptop.client.request('GET', '/api/session')).body.user.email).toBe('pat.key@example.com');
    expect(await counterOf(id)).toBe(1);
    expect((await laptop.signIn(authenticator, {}, authenticator.credentials[0])).status).toBe(200);
    expect(await counterOf(id)).toBe(2);
    // A signature counter that went back (a cloned authenticator) signs nobody in.
    const cloned = await new Browser(server.app, nextAddress()).signIn(authenticator, { counter: 2 }, authenticator.credentials[0]);
    expect(cloned).toMatchObject({ status: 400, body: { error: { code: 'passkey_failed' } } });
    expect((await owner.send('GET', '/api/passkeys')).body.passkeys[0].lastUsedAt).toEqual(expect.any(Number));

    // Only one's own: another member's removal of it is a 404, as for one that never was.
    const other = await member('other.key@example.com');
    expect((await other.send('DELETE', `/api/passkeys/${id}`)).body.error.code).toBe('passkey_not_found');
    expect((await owner.send('DELETE', `/api/passkeys/${id}`)).status).toBe(204);
    expect((await owner.send('DELETE', `/api/passkeys/${id}`)).status).toBe(404);
    expect((await owner.send('GET', '/api/passkeys')).body.passkeys).toHaveLength(1);
    const removed = await new Browser(server.app, nextAddress()).signIn(authenticator, {}, authenticator.credentials[0]);
    expect(removed).toMatchObject({ status: 401, body: { error: { code: 'passkey_unknown' } } });
  });

  it('refuses a replayed challenge, another origin or rpID, and a registration answer without its options', async () => {
    const owner = await member('replay.key@example.com');
    const authenticator = new SoftAuthenticator(ORIGIN);
    // A registration answer sent twice: the challenge was used by the first.
    const options = await owner.send('POST', '/api/passkeys/register/options', {});
    const answer = authenticator.register(options.body);
    expect((await owner.send('POST', '/api/passkeys/register', { response: answer })).status).toBe(200);
    const again = await owner.send('POST', '/api/passkeys/register', { response: answer });
    expect(again).toMatchObject({ status: 400, body: { error: { code: 'passkey_failed' } } });

    const browser = new Browser(server.app, nextAddress());
    const login = await browser.send('POST', '/api/passkeys/login/options', {});
    expect(login.body).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(login.body.allowCredentials ?? []).toEqual([]);
    const signed = authenticator.assert(login.body);
    const cookie = `ie_webauthn=${/ie_webauthn=([^;]+)/.exec(String(login.headers['set-cookie']))![1]}`;
    const replay = () => new Client(server.app, '10.63.1.1').request('POST', '/api/passkeys/login', { response: signed }, { cookie });
    expect((await replay()).status).toBe(200);
    expect((await replay()).body.error.code).toBe('passkey_failed');

    const elsewhere = await new Browser(server.app, nextAddress()).signIn(authenticator, { origin: 'https://evil.example' });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: { code: 'passkey_failed' } } });
    const otherRp = await new Browser(server.app, nextAddress()).signIn(authenticator, { rpId: 'evil.example' });
    expect(otherRp).toMatchObject({ status: 400, body: { error: { code: 'passkey_failed' } } });
    // Registration from another origin too.
    const foreign = await owner.send('POST', '/api/passkeys/register/options', {});
    const bent = new SoftAuthenticator(ORIGIN).register(foreign.body, { origin: 'https://evil.example' });
    expect((await owner.send('POST', '/api/passkeys/register', { response: bent })).body.error.code).toBe('passkey_failed');
    expect((await owner.send('GET', '/api/passkeys')).body.passkeys).toHaveLength(1);
  });

  it('a passkey of one account presented with another member’s user handle, or registered again to any account, is refused', async () => {
    const victim = await member('victim.key@example.com');
    const attacker = await member('attacker.key@example.com');
    const victimKeys = new SoftAuthenticator(ORIGIN);
    const attackerKeys = new SoftAuthenticator(ORIGIN);
    expect((await victim.addPasskey(victimKeys)).status).toBe(200);
    expect((await attacker.addPasskey(attackerKeys)).status).toBe(200);
    // The attacker's own passkey, signed for the victim's user handle.
    const swapped = await new Browser(server.app, nextAddress()).signIn(attackerKeys, {
      userHandle: victimKeys.credentials[0]!.userHandle,
    });
    expect(swapped).toMatchObject({ status: 401, body: { error: { code: 'passkey_unknown' } } });
    expect(swapped.headers['set-cookie']).not.toMatch(/ie_session=[^;]/);

    // The victim's credential registered to the attacker's account (and again to the victim's).
    const options = await attacker.send('POST', '/api/passkeys/register/options', {});
    const copied = await attacker.send('POST', '/api/passkeys/register', {
      response: victimKeys.register(options.body, {}, victimKeys.credentials[0]),
    });
    expect(copied).toMatchObject({ status: 409, body: { error: { code: 'passkey_exists' } } });
    const twice = await victim.send('POST', '/api/passkeys/register/options', {});
    const sameAgain = await victim.send('POST', '/api/passkeys/register', {
      response: victimKeys.register(twice.body, {}, victimKeys.credentials[0]),
    });
    expect(sameAgain.body.error.code).toBe('passkey_exists');
    expect((await new Browser(server.app, nextAddress()).signIn(victimKeys)).body.user.email).toBe('victim.key@example.com');
  });

  it('a forged answer (a user handle that is not base64url, or not a member id; a NUL in an id) is refused in words, never a 500', async () => {
    const forged = (id: string, userHandle: unknown) => ({
      response: { id, rawId: id, type: 'public-key', response: { clientDataJSON: 'e30', userHandle } },
    });
    for (const [body, status] of [
      [forged('AAAA', 1), 400],
      [forged('AAAA', {}), 400],
      [forged('AAAA', 'not base64url!'), 400],
      [forged('a\u0000b', 'AAA'), 400],
      // Base64url of three NUL bytes, and of a name that is no member id: nobody's passkey.
      [forged('AAAA', 'AAAA'), 401],
      [forged('AAAA', Buffer.from('nobody').toString('base64url')), 401],
    ] as const) {
      const answer = await new Browser(server.app, nextAddress()).send('POST', '/api/passkeys/login', body);
      expect([answer.status, typeof answer.body.error?.message], JSON.stringify(body)).toEqual([status, 'string']);
    }
    const owner = await member('nul.key@example.com');
    for (const id of ['%00', 'a%00b']) {
      const answer = await owner.send('DELETE', `/api/passkeys/${id}`);
      expect(answer).toMatchObject({ status: 400, body: { error: { code: 'invalid' } } });
    }
    expect((await owner.send('DELETE', '/api/passkeys/AAAA')).body.error.code).toBe('passkey_not_found');
  });

  it('a suspended or closed member’s passkey signs nobody in; under OIDC_ONLY only the admin’s does', async () => {
    const held = await member('held.key@example.com');
    const keys = new SoftAuthenticator(ORIGIN);
    await held.addPasskey(keys);
    await server.db.query('UPDATE users SET suspended_until = $1 WHERE email = $2', [Date.now() + 86_400_000, 'held.key@example.com']);
    expect((await new Browser(server.app, nextAddress()).signIn(keys)).body.error.code).toBe('suspended');
    await server.db.query('UPDATE users SET suspended_until = NULL, closed_at = $1 WHERE email = $2', [Date.now(), 'held.key@example.com']);
    expect((await new Browser(server.app, nextAddress()).signIn(keys)).body.error.code).toBe('account_closed');

    const admin = new Browser(server.app, nextAddress(), await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const adminKeys = new SoftAuthenticator(ORIGIN);
    await admin.addPasskey(adminKeys);
    const member2 = await member('sso.key@example.com');
    const memberKeys = new SoftAuthenticator(ORIGIN);
    await member2.addPasskey(memberKeys);
    // The same database behind a server with OIDC_ONLY=1.
    const oidcOnly = await testServer(
      backend,
      {
        oidc: {
          issuer: 'http://127.0.0.1:9/',
          clientId: 'forum',
          clientSecret: 'secret',
          label: 'Example',
          only: true,
          recheckMs: 3_600_000,
        },
      },
      server.db,
    );
    try {
      const refused = await new Browser(oidcOnly.app, nextAddress()).signIn(memberKeys);
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'sso_only' } } });
      expect((await new Browser(oidcOnly.app, nextAddress()).signIn(adminKeys)).body.user.email).toBe(ADMIN_EMAIL);
    } finally {
      await oidcOnly.app.close();
    }
  });

  it('a passkey whose authenticator did not verify the user is a first factor: with two-step verification on, the code is asked next', async () => {
    const owner = await member('uv.key@example.com');
    const keys = new SoftAuthenticator(ORIGIN);
    await owner.addPasskey(keys);
    // Without two-step verification, the passkey signs in whether or not the user was verified.
    expect((await new Browser(server.app, nextAddress()).signIn(keys, { verified: false })).body.user.email).toBe('uv.key@example.com');
    await server.db.query('UPDATE users SET totp_enabled_at = $1 WHERE email = $2', [Date.now(), 'uv.key@example.com']);
    const unverified = await new Browser(server.app, nextAddress()).signIn(keys, { verified: false });
    expect(unverified).toMatchObject({ status: 200, body: { twoStep: true } });
    expect(unverified.body.user).toBeUndefined();
    expect(String(unverified.headers['set-cookie'])).toMatch(/ie_two_step=[^;]+/);
    expect(String(unverified.headers['set-cookie'])).not.toMatch(/ie_session=[^;]/);
    // A verified user: both factors at once.
    const verified = new Browser(server.app, nextAddress());
    expect((await verified.signIn(keys)).body.user.email).toBe('uv.key@example.com');
    expect((await verified.client.request('GET', '/api/session')).status).toBe(200);
  });

  it('a staff account’s passkeys added and removed are in the staff log; a member’s are not', async () => {
    const admin = new Browser(server.app, nextAddress(), await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const keys = new SoftAuthenticator(ORIGIN);
    const added = await admin.addPasskey(keys, 'Admin key');
    expect((await admin.send('DELETE', `/api/passkeys/${added.body.passkey.id}`)).status).toBe(204);
    const logged = await server.db.query<{ action: string; title: string }>(
      `SELECT action, title FROM staff_log WHERE action IN ('addPasskey', 'removePasskey') AND title = 'Admin key' ORDER BY id`,
    );
    expect(logged).toEqual([
      { action: 'addPasskey', title: 'Admin key' },
      { action: 'removePasskey', title: 'Admin key' },
    ]);
    const plain = await member('plain.key@example.com');
    await plain.addPasskey(new SoftAuthenticator(ORIGIN), 'Member key');
    expect(await server.db.query(`SELECT 1 FROM staff_log WHERE title = 'Member key'`)).toEqual([]);
  });

  it('passkey sign-ins count against the address’s sign-in limit: 429 past it', async () => {
    const owner = await member('limit.key@example.com');
    const keys = new SoftAuthenticator(ORIGIN);
    await owner.addPasskey(keys);
    const browser = new Browser(server.app, nextAddress());
    for (let attempt = 0; attempt < PER_ADDRESS; attempt++) expect((await browser.signIn(keys)).status).toBe(200);
    const limited = await browser.signIn(keys);
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });
});
