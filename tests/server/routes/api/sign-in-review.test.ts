// Issue 63's security review (item 5): what the review of the three sign-in methods found and fixed,
// each shown refused here. A passkey signs in alone because user verification (a PIN, a fingerprint)
// makes it both factors; an authenticator that only saw someone present is one factor, so it must not
// open an account that has two-step verification on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, memberWithSession, ORIGIN, type Answer } from '../../support/client';
import { SoftAuthenticator, type Bend } from '../../support/authenticator';
import { testServer, type TestServer } from '../../support/app';

describe('the sign-in methods under review', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  /** One request of `client` with the `ie_webauthn` cookie `held` (the options' answer sets it). */
  async function withChallenge(client: Client, url: string, payload: unknown, held?: string): Promise<Answer> {
    const cookie = [client.cookie, held && `ie_webauthn=${held}`].filter(Boolean).join('; ');
    return client.request('POST', url, payload, cookie ? { cookie } : {});
  }
  const heldOf = (answer: Answer) =>
    [answer.headers['set-cookie'] ?? []]
      .flat()
      .map(String)
      .map((line) => /^ie_webauthn=([^;]*)/.exec(line)?.[1])
      .find(Boolean);

  /** A passkey sign-in on a new browser with `authenticator`'s passkey, its answer bent by `bend`. */
  async function passkeySignIn(authenticator: SoftAuthenticator, bend: Bend): Promise<Answer> {
    const browser = new Client(server.app, '10.63.9.1');
    const options = await withChallenge(browser, '/api/passkeys/login/options', {});
    return withChallenge(browser, '/api/passkeys/login', { response: authenticator.assert(options.body, undefined, bend) }, heldOf(options));
  }

  it('a passkey without user verification does not open an account with two-step verification on; with it, it does', async () => {
    const owner = await memberWithSession(server.app, server.db, 'uv.review@example.com');
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await withChallenge(owner, '/api/passkeys/register/options', {});
    const added = await withChallenge(owner, '/api/passkeys/register', { response: authenticator.register(options.body) }, heldOf(options));
    expect(added.status).toBe(200);
    // Without two-step verification, presence alone is the account's one factor, as a password is.
    expect((await passkeySignIn(authenticator, { userVerified: false })).status).toBe(200);
    await server.db.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP', totp_last_step = 0, totp_enabled_at = $2 WHERE email = $1`, [
      'uv.review@example.com',
      Date.now(),
    ]);
    const refused = await passkeySignIn(authenticator, { userVerified: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('passkey_failed');
    expect(refused.headers['set-cookie']).not.toMatch(/ie_session=[^;]/);
    expect((await passkeySignIn(authenticator, {})).status).toBe(200);
  });
});
