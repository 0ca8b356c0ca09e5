// Two-step verification (issue 63) on both engines, with codes computed here from the key the setup
// showed (otpauth, as an authenticator app does): setup and Turn on, a password alone opens no
// session, the right code does and the same code never twice, guesses held by the sign-in limits,
// recovery codes once each, Turn off needs a code, and the admin's "require it for staff" with its
// refusals and the staff log's rows. The clock is the test's (Date only), so each code's time step is known.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { Client, reviewOp, signedIn, TEST_PASSWORD, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

/** The code an authenticator app shows for `key` (as the setup showed it, grouped) at `at`. */
const codeAt = (key: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(key.replace(/\s+/g, '')), timestamp: at });

/** The `ie_two_step` cookie an answer set (undefined: none). */
const twoStepCookie = (answer: Answer): string | undefined => {
  const cookies = ([] as (string | number)[]).concat(answer.headers['set-cookie'] ?? []).map(String);
  return cookies.find((cookie) => cookie.startsWith('ie_two_step='))?.match(/^ie_two_step=([^;]*)/)?.[1] || undefined;
};

/** Posts a code with the `ie_two_step` cookie of the sign-in that asked for it. */
const sendCode = (client: Client, cookie: string | undefined, body: object) =>
  client.request('POST', '/api/session/two-step', body, cookie ? { cookie: `ie_two_step=${cookie}` } : {});

const START = Date.UTC(2026, 11, 3, 9, 0, 15);
const STEP = 30_000;

describe.each(BACKENDS)('two-step verification on %s', (backend) => {
  let server: TestServer;
  let now = START;
  beforeAll(async () => {
    server = await testServer(backend, {
      limits: { perEmailAndAddress: { max: 5, windowMs: 15 * 60_000 }, perAddress: { max: 1000, windowMs: 60_000 } },
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
  });
  afterEach(() => vi.useRealTimers());
  /** Moves the clock on by `steps` time steps (a new code shows). */
  const later = (steps = 1) => {
    now += steps * STEP;
    vi.setSystemTime(now);
  };

  /** Signs `email` up and turns two-step verification on; returns the client, the key and the recovery codes. */
  async function withTwoStep(email: string, client?: Client) {
    const member = client ?? (await signedIn(server.app, email));
    const setup = await member.request('POST', '/api/account/two-step/setup', {});
    expect(setup.status).toBe(200);
    const key: string = setup.body.key;
    const enabled = await member.request('POST', '/api/account/two-step/enable', { code: codeAt(key, now) });
    expect(enabled.status).toBe(200);
    return { member, key, recoveryCodes: enabled.body.recoveryCodes as string[] };
  }

  it('Set up shows a key, its otpauth URI and a QR code; a wrong code turns nothing on; the right one does and shows ten recovery codes', async () => {
    const member = await signedIn(server.app, 'setup.one@example.com');
    expect((await member.request('GET', '/api/account/two-step')).body).toEqual({ on: false, recoveryCodesLeft: 0, required: false });
    expect((await member.request('POST', '/api/account/two-step/enable', { code: '123456' })).body.error.code).toBe('two_step_expired');
    const setup = await member.request('POST', '/api/account/two-step/setup', {});
    expect(setup.body.key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4})+$/);
    const uri = new URL(setup.body.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Insight Exchange');
    expect(uri.searchParams.get('secret')).toBe(setup.body.key.replace(/ /g, ''));
    expect(decodeURIComponent(uri.pathname)).toContain('setup.one@example.com');
    expect(setup.body.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.body.qr.split(',')[1], 'base64').toString()).toContain('<svg');

    const wrong = String((Number(codeAt(setup.body.key, now)) + 1) % 1_000_000).padStart(6, '0');
    expect((await member.request('POST', '/api/account/two-step/enable', { code: wrong })).body.error.code).toBe('bad_code');
    expect((await member.request('GET', '/api/account/two-step')).body.on).toBe(false);
    const enabled = await member.request('POST', '/api/account/two-step/enable', { code: codeAt(setup.body.key, now) });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    for (const code of enabled.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await member.request('GET', '/api/account/two-step')).body).toEqual({ on: true, recoveryCodesLeft: 10, required: false });
    // Only hashes are kept.
    const stored = await server.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.email = $1',
      ['setup.one@example.com'],
    );
    expect(stored).toHaveLength(10);
    expect(stored.some((row) => enabled.body.recoveryCodes.some((code: string) => row.code_hash.includes(code.replace('-', ''))))).toBe(
      false,
    );
    expect((await member.request('POST', '/api/account/two-step/setup', {})).body.error.code).toBe('two_step_on');
  });

  it('every pull page of a member with it on says twoStep (their other devices forget the offline verifier); off again, pages say nothing', async () => {
    const device = await signedIn(server.app, 'pull.flag@example.com');
    const before = await device.pull();
    expect(before.status).toBe(200);
    expect(before.body.twoStep).toBeUndefined();
    // Turned on from another browser of the member's: this device's session hears it at its next pull.
    const phone = await signedIn(server.app, 'pull.flag@example.com');
    const { key } = await withTwoStep('pull.flag@example.com', phone);
    const after = await device.pull(before.body.cursor);
    expect(after.status).toBe(200);
    expect(after.body.twoStep).toBe(true);
    // Any range, and a device of an older protocol too (it ignores the field).
    expect((await device.pull(0, 1, 1)).body.twoStep).toBe(true);
    later();
    expect((await phone.request('POST', '/api/account/two-step/disable', { code: codeAt(key, now) })).status).toBe(204);
    expect((await device.pull(after.body.cursor)).body.twoStep).toBeUndefined();
  });

  it('with it on, the password alone opens no session; the right code does, once; the same code (replayed) and an older one are refused', async () => {
    const { key } = await withTwoStep('replay.two@example.com');
    later();
    const device = new Client(server.app);
    const first = await device.signIn('replay.two@example.com', TEST_PASSWORD);
    expect(first).toMatchObject({ status: 200, body: { twoStep: true } });
    expect(first.body.user).toBeUndefined();
    expect(device.cookie).toBeUndefined();
    const cookie = twoStepCookie(first);
    expect(cookie).toBeDefined();
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/i);
    expect(String(first.headers['set-cookie'])).toMatch(/SameSite=Strict/i);
    expect((await device.request('GET', '/api/session')).status).toBe(401);

    // Without the cookie (another browser), nothing to finish.
    expect((await sendCode(new Client(server.app), undefined, { code: codeAt(key, now) })).body.error.code).toBe('two_step_expired');
    const code = codeAt(key, now);
    const signedInNow = await sendCode(device, cookie, { code });
    expect(signedInNow).toMatchObject({ status: 200, body: { user: { email: 'replay.two@example.com' } } });
    expect((await device.request('GET', '/api/session')).status).toBe(200);
    // The challenge is used up.
    expect((await sendCode(new Client(server.app), cookie, { code })).body.error.code).toBe('two_step_expired');

    // The same code again, from a new password sign-in: refused (it was accepted once), and the code
    // of the step before too; the next step's code works.
    const other = new Client(server.app);
    const again = twoStepCookie(await other.signIn('replay.two@example.com', TEST_PASSWORD));
    expect(await sendCode(other, again, { code })).toMatchObject({ status: 401, body: { error: { code: 'bad_code' } } });
    expect((await sendCode(other, again, { code: codeAt(key, now - STEP) })).body.error.code).toBe('bad_code');
    expect(other.cookie).toBeUndefined();
    later();
    expect((await sendCode(other, again, { code: codeAt(key, now) })).status).toBe(200);
  });

  it('two right codes sent at once with one code: one is accepted', async () => {
    const { key } = await withTwoStep('race.three@example.com');
    later();
    const [a, b] = [new Client(server.app), new Client(server.app)];
    const [ca, cb] = [twoStepCookie(await a.signIn('race.three@example.com')), twoStepCookie(await b.signIn('race.three@example.com'))];
    const code = codeAt(key, now);
    const answers = await Promise.all([sendCode(a, ca, { code }), sendCode(b, cb, { code })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  it('wrong codes count against the sign-in limits: 429 with the waiting sentence, even for the right code then', async () => {
    const { key } = await withTwoStep('guess.four@example.com', undefined);
    later();
    const attacker = new Client(server.app, '10.0.0.4');
    const cookie = twoStepCookie(await attacker.signIn('guess.four@example.com'));
    const right = codeAt(key, now);
    const wrong = (n: number) => String((Number(right) + n) % 1_000_000).padStart(6, '0');
    for (let n = 1; n <= 5; n++) expect((await sendCode(attacker, cookie, { code: wrong(n * 7919) })).status).toBe(401);
    const held = await sendCode(attacker, cookie, { code: right });
    expect(held.status).toBe(429);
    expect(held.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/),
    });
    expect(held.headers['retry-after']).toBeDefined();
    expect(attacker.cookie).toBeUndefined();
    // The owner elsewhere is not held by a stranger's guesses.
    const owner = new Client(server.app, '10.0.0.5');
    expect((await sendCode(owner, twoStepCookie(await owner.signIn('guess.four@example.com')), { code: right })).status).toBe(200);
  });

  it('recovery codes sign in once each, in any case and spacing; Turn off needs a code; new recovery codes end the old ones', async () => {
    const { member, key, recoveryCodes } = await withTwoStep('recover.five@example.com');
    const [firstCode, secondCode] = recoveryCodes as [string, string];
    const device = new Client(server.app);
    const cookie = twoStepCookie(await device.signIn('recover.five@example.com'));
    expect((await sendCode(device, cookie, { recoveryCode: ` ${firstCode.toUpperCase().replace('-', ' ')} ` })).status).toBe(200);
    const again = new Client(server.app);
    const cookie2 = twoStepCookie(await again.signIn('recover.five@example.com'));
    expect((await sendCode(again, cookie2, { recoveryCode: firstCode })).body.error.code).toBe('bad_recovery_code');
    expect((await member.request('GET', '/api/account/two-step')).body.recoveryCodesLeft).toBe(9);

    later();
    const renewed = await member.request('POST', '/api/account/two-step/recovery-codes', { code: codeAt(key, now) });
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect((await sendCode(again, cookie2, { recoveryCode: secondCode })).body.error.code).toBe('bad_recovery_code');

    expect((await member.request('POST', '/api/account/two-step/disable', {})).status).toBe(400);
    expect((await member.request('POST', '/api/account/two-step/disable', { code: codeAt(key, now) })).body.error.code).toBe('bad_code');
    later();
    expect((await member.request('POST', '/api/account/two-step/disable', { recoveryCode: renewed.body.recoveryCodes[0] })).status).toBe(
      204,
    );
    expect((await member.request('GET', '/api/account/two-step')).body).toEqual({ on: false, recoveryCodesLeft: 0, required: false });
    // Off: the password alone signs in again, and the pending code step is over.
    expect((await sendCode(again, cookie2, { code: codeAt(key, now) })).body.error.code).toBe('two_step_expired');
    expect((await new Client(server.app).signIn('recover.five@example.com')).body.user.email).toBe('recover.five@example.com');
  });

  it('the admin requires it for staff: not before their own is on; meanwhile a staff account without it is refused admin work; the staff log has each change', async () => {
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const member = await signedIn(server.app, 'plain.six@example.com');
    expect((await member.request('GET', '/api/admin/security')).body.error.code).toBe('admins_only');
    expect((await admin.request('GET', '/api/admin/security')).body).toEqual({ requireTwoStepForStaff: false });
    const early = await admin.request('PUT', '/api/admin/security', { requireTwoStepForStaff: true });
    expect(early).toMatchObject({
      status: 403,
      body: { error: { code: 'two_step_required', message: expect.stringMatching(/your own account first/) } },
    });

    // A second staff account (the role is the database's), without two-step verification.
    const staff = await signedIn(server.app, 'second.seven@example.com');
    await server.db.query(`UPDATE users SET role = 'admin' WHERE email = $1`, ['second.seven@example.com']);

    const { key } = await withTwoStep(ADMIN_EMAIL, admin);
    expect((await admin.request('PUT', '/api/admin/security', { requireTwoStepForStaff: true })).body).toEqual({
      requireTwoStepForStaff: true,
    });
    expect((await staff.request('GET', '/api/account/two-step')).body).toMatchObject({ on: false, required: true });
    expect((await member.request('GET', '/api/account/two-step')).body.required).toBe(false);

    // The staff account without it: refused /api/admin (but the settings' read) and the staff operations.
    expect(await staff.request('GET', '/api/admin/log')).toMatchObject({ status: 403, body: { error: { code: 'two_step_required' } } });
    expect((await staff.request('GET', '/api/admin/security')).status).toBe(200);
    const pushed = await staff.push(reviewOp(1, 'approve'));
    expect(pushed.body.results[0]).toMatchObject({ status: 'refused', code: 'two_step_required' });
    // The admin with it works as before.
    expect((await admin.request('GET', '/api/admin/log')).status).toBe(200);

    // The staff account turns it on: admin work again, and the log says so.
    await withTwoStep('second.seven@example.com', staff);
    expect((await staff.request('GET', '/api/admin/log')).status).toBe(200);
    later();
    expect((await admin.request('PUT', '/api/admin/security', { requireTwoStepForStaff: false })).status).toBe(200);
    later();
    expect((await admin.request('POST', '/api/account/two-step/recovery-codes', { code: codeAt(key, now) })).status).toBe(200);
    later();
    expect((await admin.request('POST', '/api/account/two-step/disable', { code: codeAt(key, now) })).status).toBe(204);

    const log = (await admin.request('GET', '/api/admin/log')).body.entries as {
      action: string;
      actor: { name: string };
      member: { name: string } | null;
      title: string | null;
    }[];
    const ours = log
      .filter((entry) => ['turnOnTwoStep', 'turnOffTwoStep', 'newRecoveryCodes', 'requireTwoStep'].includes(entry.action))
      .map((entry) => [entry.action, entry.actor.name, entry.member?.name ?? entry.title])
      .reverse();
    expect(ours).toEqual([
      ['turnOnTwoStep', 'Admin', 'Admin'],
      ['requireTwoStep', 'Admin', 'on'],
      ['turnOnTwoStep', expect.stringMatching(/^Second/), expect.stringMatching(/^Second/)],
      ['requireTwoStep', 'Admin', 'off'],
      ['newRecoveryCodes', 'Admin', 'Admin'],
      ['turnOffTwoStep', 'Admin', 'Admin'],
    ]);
    // A member's own changes are no staff action.
    expect(log.some((entry) => entry.member?.name.startsWith('Setup'))).toBe(false);
  });
});
