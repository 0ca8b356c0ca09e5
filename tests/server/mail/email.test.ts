// Accounts people keep (issue 41), against a real SMTP server on loopback: the sign-up confirmation,
// the same answer for a known address (its owner told), Forgot password (one answer, a link that works
// once and expires, every session signed out and told why), Change password and its notice, the
// signed-in devices, email notifications when away and their one-click unsubscribe, and the queue:
// an SMTP server down then up, and two instances at once, each message arriving exactly once.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/app';
import { awayRound, AWAY_MS, digestRound } from '../../../server/mail/notify';
import { MailWorker } from '../../../server/mail/outbox';
import { smtpTransport } from '../../../server/mail/transport';
import { findUser, hashToken } from '../../../server/db/members/accounts';
import type { Database } from '../../../server/db/storage/adapter';
import { RELAXED_LIMITS } from '../support/limits';
import {
  Client,
  editPostOp,
  flagOp,
  hidePostOp,
  hideReplyOp,
  replyOp,
  reviewOp,
  saveOp,
  signedIn,
  TEST_PASSWORD,
  type Answer,
} from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../support/databases';
import { testServer, type TestServer } from '../support/app';
import { linkIn, startSmtp, until, type TestSmtp } from '../support/smtp';

const ORIGIN = 'https://forum.example.com';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const resultOf = (answer: Answer) => answer.body.results[0];

describe.each(BACKENDS)('email on %s', (backend) => {
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await testServer(backend, {
      origin: ORIGIN,
      mail: { transport: smtpTransport(smtp.url), from: 'Insight Exchange <no-reply@example.com>', retryBaseMs: 50, pollMs: 60_000 },
    });
    await server.app.ready();
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });
  afterEach(() => {
    vi.useRealTimers();
    smtp.failing = false;
  });

  const send = () => server.app.mailWorker!.wake();
  const mailsTo = (email: string) => smtp.to(email);

  /** Create Account, then the emailed link: the account is made, and this client signed in. */
  async function join(email: string, name: string): Promise<Client> {
    const client = new Client(server.app);
    const made = await client.signIn(email, TEST_PASSWORD, 'signup', name);
    expect(made).toEqual(expect.objectContaining({ status: 200, body: { checkEmail: true } }));
    const answer = await client.request('POST', '/api/email/confirm', { token: tokenOf(await signUpLink(email)), password: TEST_PASSWORD });
    expect(answer).toMatchObject({ status: 200, body: { user: { email, name } } });
    return client;
  }

  async function signUpLink(email: string): Promise<string> {
    await send();
    await until(() => mailsTo(email).some((mail) => mail.subject.startsWith('Finish creating')), 10_000, 'the sign-up link');
    return linkIn(mailsTo(email).findLast((mail) => mail.subject.startsWith('Finish creating'))!.text, `${ORIGIN}/confirm-email?token=`);
  }

  it('Create Account emails a link (a text and an HTML part, the product’s name, PUBLIC_ORIGIN) that makes the account, signs in and works once', async () => {
    const client = new Client(server.app);
    expect((await client.signIn('nadia@example.com', TEST_PASSWORD, 'signup', 'Nadia Fieldwork')).body).toEqual({ checkEmail: true });
    expect(client.cookie).toBeUndefined();
    await send();
    await until(() => mailsTo('nadia@example.com').length === 1, 10_000, 'the sign-up link');
    const [mail] = mailsTo('nadia@example.com');
    expect(mail!.subject).toBe('Finish creating your Insight Exchange account');
    expect(mail!.text).toContain('Insight Exchange');
    expect(mail!.html).toContain('Insight Exchange');
    const link = linkIn(mail!.text, `${ORIGIN}/confirm-email?token=`);
    expect(mail!.html).toContain(link);
    expect(mail!.parsed.from?.text).toContain('no-reply@example.com');
    // Its page asks whether it works before a password is typed; asking uses nothing up.
    const check = () => new Client(server.app).request('POST', '/api/links/check', { token: tokenOf(link) });
    expect(await check()).toMatchObject({ status: 200, body: { message: 'This link works.' } });
    expect(await check()).toMatchObject({ status: 200 });
    const first = await client.request('POST', '/api/email/confirm', { token: tokenOf(link), password: TEST_PASSWORD });
    expect(first).toMatchObject({ status: 200, body: { user: { email: 'nadia@example.com', name: 'Nadia Fieldwork' } } });
    const again = await new Client(server.app).request('POST', '/api/email/confirm', { token: tokenOf(link), password: TEST_PASSWORD });
    expect(again).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
    expect(await check()).toMatchObject({
      status: 410,
      body: { error: { code: 'link_expired', message: expect.stringMatching(/already used/) } },
    });
    expect((await client.request('GET', '/api/account')).body).toEqual({
      email: 'nadia@example.com',
      emailVerified: true,
      emailPref: 'away',
      hasPassword: true,
      recentSignIn: true,
    });
  });

  it('an account made before issue 59, its address unconfirmed: Send again emails a link that confirms it, once', async () => {
    const client = await join('nora@example.com', 'Nora Legacy');
    await server.db.query(`UPDATE users SET email_verified_at = NULL WHERE email = 'nora@example.com'`);
    expect((await client.request('POST', '/api/account/confirm-email')).status).toBe(202);
    await send();
    await until(() => mailsTo('nora@example.com').some((m) => m.subject.startsWith('Confirm your email')), 10_000, 'the confirmation');
    const link = linkIn(
      mailsTo('nora@example.com').find((m) => m.subject.startsWith('Confirm your email'))!.text,
      `${ORIGIN}/confirm-email?token=`,
    );
    const first = await new Client(server.app).request('POST', '/api/email/confirm', { token: tokenOf(link) });
    expect(first).toMatchObject({ status: 200, body: { message: 'Your email is confirmed.' } });
    expect(first.headers['set-cookie']).toBeUndefined();
    expect((await new Client(server.app).request('POST', '/api/email/confirm', { token: tokenOf(link) })).status).toBe(410);
    expect((await client.request('GET', '/api/account')).body.emailVerified).toBe(true);
  });

  it('Create Account with a known address answers “check your email” without a session, and its owner hears that someone tried', async () => {
    await join('owen@example.com', 'Owen Panel');
    const stranger = new Client(server.app);
    const answer = await stranger.signIn('owen@example.com', 'another-long-passphrase', 'signup', 'Owen Impostor');
    expect(answer).toEqual(expect.objectContaining({ status: 200, body: { checkEmail: true } }));
    expect(stranger.cookie).toBeUndefined();
    // Twice in an hour: told once.
    await stranger.signIn('owen@example.com', 'another-long-passphrase', 'signup', 'Owen Impostor');
    await send();
    await until(() => mailsTo('owen@example.com').some((m) => m.subject.includes('Someone tried')), 10_000, 'the warning');
    expect(mailsTo('owen@example.com').filter((m) => m.subject.includes('Someone tried'))).toHaveLength(1);
    expect(mailsTo('owen@example.com').find((m) => m.subject.includes('Someone tried'))!.text).toContain(`${ORIGIN}/reset-password`);
  });

  it('Forgot password: one answer whether or not the address has an account; the link works once, signs out every session (told why), and a notice follows', async () => {
    const phone = await join('rita@example.com', 'Rita Reset');
    const tablet = new Client(server.app);
    await tablet.signIn('rita@example.com', TEST_PASSWORD);
    const known = await new Client(server.app).request('POST', '/api/password/forgot', { email: 'Rita@Example.com' });
    const unknown = await new Client(server.app).request('POST', '/api/password/forgot', { email: 'nobody@example.com' });
    expect(known.status).toBe(202);
    expect(unknown).toEqual(expect.objectContaining({ status: known.status, body: known.body }));
    await send();
    await until(() => mailsTo('rita@example.com').some((m) => m.subject.startsWith('Reset your')), 10_000, 'the reset link');
    expect(mailsTo('nobody@example.com')).toHaveLength(0);
    const link = linkIn(
      mailsTo('rita@example.com').find((m) => m.subject.startsWith('Reset your'))!.text,
      `${ORIGIN}/reset-password?token=`,
    );
    const check = () => new Client(server.app).request('POST', '/api/links/check', { token: tokenOf(link) });
    expect(await check()).toMatchObject({ status: 200 });
    // A weak password is refused and leaves the link working.
    const weak = await new Client(server.app).request('POST', '/api/password/reset', { token: tokenOf(link), password: 'short' });
    expect(weak).toMatchObject({ status: 400, body: { error: { code: 'invalid' } } });
    const reset = await new Client(server.app).request('POST', '/api/password/reset', {
      token: tokenOf(link),
      password: 'a-brand-new-passphrase',
    });
    expect(reset).toMatchObject({ status: 200 });
    expect(await check()).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
    const twice = await new Client(server.app).request('POST', '/api/password/reset', {
      token: tokenOf(link),
      password: 'yet-another-passphrase',
    });
    expect(twice).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
    // Both devices are told why, on every request (the live stream's and the next sync's).
    expect(await phone.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'password_changed' } } });
    expect(await tablet.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'password_changed' } } });
    expect(await tablet.request('GET', '/api/changes?after=0&limit=10')).toMatchObject({
      status: 401,
      body: { error: { code: 'password_changed' } },
    });
    expect((await new Client(server.app).signIn('rita@example.com', TEST_PASSWORD)).status).toBe(401);
    expect((await new Client(server.app).signIn('rita@example.com', 'a-brand-new-passphrase')).status).toBe(200);
    await send();
    await until(() => mailsTo('rita@example.com').some((m) => m.subject.includes('password was changed')), 10_000, 'the notice');
  });

  it('a reset link expires after 30 minutes, and a newer one ends the older', async () => {
    await join('ezra@example.com', 'Ezra Expiry');
    await new Client(server.app).request('POST', '/api/password/forgot', { email: 'ezra@example.com' });
    await new Client(server.app).request('POST', '/api/password/forgot', { email: 'ezra@example.com' });
    await send();
    await until(() => mailsTo('ezra@example.com').filter((m) => m.subject.startsWith('Reset your')).length === 2, 10_000, 'two links');
    const [older, newer] = mailsTo('ezra@example.com')
      .filter((m) => m.subject.startsWith('Reset your'))
      .sort((a, b) => Number(a.messageId?.match(/\d+/)?.[0]) - Number(b.messageId?.match(/\d+/)?.[0]))
      .map((m) => tokenOf(linkIn(m.text, `${ORIGIN}/reset-password?token=`)));
    const olderAnswer = await new Client(server.app).request('POST', '/api/password/reset', {
      token: older,
      password: 'a-brand-new-passphrase',
    });
    expect(olderAnswer.status).toBe(410);
    const check = async (token: string) => (await new Client(server.app).request('POST', '/api/links/check', { token })).status;
    expect([await check(older!), await check(newer!)]).toEqual([410, 200]);
    // An address's confirmation token is not a reset's: the check answers for a reset's or a sign-up's only.
    expect(await check('c'.repeat(43))).toBe(410);
    expect(await check('../../etc/passwd')).toBe(400);
    // A sign-up's link made before its tokens began `signup-` is looked for among the sign-ups too.
    const unmarked = 'u'.repeat(43);
    await server.db.query(
      'INSERT INTO pending_signups (token_hash, email, name, password_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [hashToken(unmarked), 'early@example.com', 'Early Bird', 'x', Date.now(), Date.now() + 60_000],
    );
    expect(await check(unmarked)).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 60_000 });
    const late = await new Client(server.app).request('POST', '/api/password/reset', { token: newer, password: 'a-brand-new-passphrase' });
    expect(late).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
    expect(await check(newer!)).toBe(410);
  });

  it('Change password needs the current one, keeps this device, signs out the others (told why), and sends a notice', async () => {
    const phone = await join('carl@example.com', 'Carl Change');
    const tablet = new Client(server.app);
    await tablet.signIn('carl@example.com', TEST_PASSWORD);
    const wrong = await phone.request('POST', '/api/account/password', { current: 'not-my-password', password: 'a-brand-new-passphrase' });
    expect(wrong).toMatchObject({ status: 403, body: { error: { code: 'wrong_password' } } });
    const changed = await phone.request('POST', '/api/account/password', { current: TEST_PASSWORD, password: 'a-brand-new-passphrase' });
    expect(changed).toMatchObject({ status: 200, body: { message: 'Password changed. Your other devices were signed out.' } });
    expect((await phone.request('GET', '/api/session')).status).toBe(200);
    expect(await tablet.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'password_changed' } } });
    await send();
    await until(() => mailsTo('carl@example.com').some((m) => m.subject.includes('password was changed')), 10_000, 'the notice');
  });

  it('signed-in devices: each with its browser, platform and times, “This device”; Sign out one, and everywhere else', async () => {
    const phoneUa = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
    const tabletUa =
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    const phone = await join('dana@example.com', 'Dana Devices');
    const tablet = new Client(server.app);
    await tablet.request(
      'POST',
      '/api/session',
      { mode: 'signin', email: 'dana@example.com', password: TEST_PASSWORD },
      { 'user-agent': tabletUa },
    );
    const laptop = new Client(server.app);
    await laptop.request(
      'POST',
      '/api/session',
      { mode: 'signin', email: 'dana@example.com', password: TEST_PASSWORD },
      { 'user-agent': phoneUa },
    );
    const listed = (await tablet.request('GET', '/api/account/devices')).body.devices as {
      id: string;
      browser: string;
      platform: string;
      current: boolean;
    }[];
    expect(listed).toHaveLength(3);
    expect(listed.find((d) => d.current)).toMatchObject({ browser: 'Safari', platform: 'iPad' });
    expect(listed.filter((d) => d.browser === 'Chrome' && d.platform === 'Android')).toHaveLength(1);
    const laptopId = listed.find((d) => d.platform === 'Android')!.id;
    // Another member cannot end it.
    const other = await signedIn(server.app, 'mallory@example.com');
    expect((await other.request('DELETE', `/api/account/devices/${laptopId}`)).status).toBe(404);
    expect((await tablet.request('DELETE', `/api/account/devices/${laptopId}`)).status).toBe(204);
    expect(await laptop.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'session_revoked' } } });
    const everywhere = await tablet.request('POST', '/api/account/devices/sign-out-others', {});
    expect(everywhere).toMatchObject({ status: 200, body: { message: 'One other device was signed out.' } });
    expect(await phone.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'session_revoked' } } });
    expect((await tablet.request('GET', '/api/account/devices')).body.devices).toHaveLength(1);
  });

  it('when away: an unread notification is emailed after 10 minutes, grouped, at most once per 10 minutes; one read on a device never is; one-click unsubscribe works without signing in', async () => {
    const author = await join('ann@example.com', 'Ann Away');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const replier = await signedIn(server.app, 'bo@example.com');
    const postId = await author.createPost('Away test post');
    await admin.push(reviewOp(postId));
    // The approval and two replies: three unread notifications.
    for (const text of ['First reply', 'Second reply']) await replier.push(replyOp(postId, text));
    const ann = (await findUser(server.db, 'ann@example.com'))!;
    expect(await awayRound(server.db, ORIGIN)).toBe(0); // not 10 minutes yet
    const later = Date.now() + AWAY_MS + 1000;
    expect(await awayRound(server.db, ORIGIN, later)).toBe(1);
    expect(await awayRound(server.db, ORIGIN, later)).toBe(0);
    await send();
    await until(() => mailsTo('ann@example.com').some((m) => m.subject.includes('new notifications')), 10_000, 'the away email');
    const away = mailsTo('ann@example.com').find((m) => m.subject.includes('new notifications'))!;
    // The two replies are one line (issue 62: a conversation is never listed once per reply).
    expect(away.subject).toBe('2 new notifications on Insight Exchange');
    expect(away.text).toContain('2 new replies in “Away test post”');
    expect(away.text).toContain('Your post “Away test post” was approved');
    const unsubscribe = away.header('list-unsubscribe')!;
    expect(away.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // A reply read on a device at once is never emailed.
    await replier.push(replyOp(postId, 'Third reply'));
    await server.db.query('UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [ann.id, Date.now()]);
    expect(await awayRound(server.db, ORIGIN, later + 2 * AWAY_MS)).toBe(0);
    // RFC 8058: the mail program posts the form, with no session and no Origin.
    const url = new URL(unsubscribe.replace(/^<|>$/g, ''));
    expect(url.origin).toBe(ORIGIN);
    const oneClick = await server.app.inject({
      method: 'POST',
      url: `${url.pathname.replace('/unsubscribe', '/api/email/unsubscribe')}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect((await author.request('GET', '/api/account')).body.emailPref).toBe('never');
  });

  it('a mention is emailed when away, in the notification’s words, once its post is approved, with a link to the post, by its title as it is then', async () => {
    const mia = await join('mia@example.com', 'Mia Mentioned');
    const miaId = (await mia.request('GET', '/api/session')).body.user.id as string;
    const writer = new Client(server.app);
    await writer.join('wes@example.com', undefined, 'Wes Writer');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const postId = await writer.createPost('Speeders by panel source', {
      content: `What do you see, [@Mia Mentioned](/members/${miaId})?`,
    });
    // Pending: nothing to tell Mia yet.
    const mentions = async () =>
      (await mia.pull()).body.notifications.filter((note: { kind: string }) => note.kind === 'mentioned') as unknown[];
    expect(await mentions()).toEqual([]);
    await admin.push(reviewOp(postId));
    expect(await mentions()).toHaveLength(1);
    // Renamed before the email is written: it names the post as it is now, never the title replaced.
    const content = `What do you see, [@Mia Mentioned](/members/${miaId})?`;
    expect(resultOf(await writer.push(editPostOp(postId, 'approved', { title: 'Speeders by panel vendor', content }))).status).toBe(
      'applied',
    );
    // Away since the approval made the notification: taken after it (taken before, a pull and the
    // approval slower than 1 s under load left the notification too new to email).
    const later = Date.now() + AWAY_MS + 1000;
    expect(await awayRound(server.db, ORIGIN, later)).toBeGreaterThanOrEqual(1);
    await send();
    const subject = 'Wes Writer mentioned you in “Speeders by panel vendor”';
    await until(() => mailsTo('mia@example.com').some((mail) => mail.subject === subject), 10_000, 'the mention email');
    const mail = mailsTo('mia@example.com').find((m) => m.subject === subject)!;
    expect(mail.text).toContain(`${ORIGIN}/posts/${postId}`);
    expect(mail.html).toContain('Wes Writer mentioned you in');
    expect(mailsTo('mia@example.com').filter((m) => m.subject === subject)).toHaveLength(1);
    expect(mailsTo('mia@example.com').filter((m) => `${m.subject} ${m.text}`.includes('panel source'))).toEqual([]);
  });

  it('an email re-checks what it names when it is written: a post hidden and a reply hidden since are left out, and nothing left sends nothing (issue 59)', async () => {
    const ida = await join('ida@example.com', 'Ida Hidden');
    const idaId = (await ida.request('GET', '/api/session')).body.user.id as string;
    const writer = await signedIn(server.app, 'hal@example.com');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const queued = async () =>
      (
        await server.db.query<{ subject: string }>(`SELECT subject FROM mail_outbox WHERE to_email = 'ida@example.com' AND kind = 'away'`)
      ).map((row) => row.subject);
    // Ida is mentioned in a post; an admin hides it before the email is written: no email at all.
    const hiddenPost = await writer.createPost('Soon hidden', { content: `Look, [@Ida Hidden](/members/${idaId}).` });
    await admin.push(reviewOp(hiddenPost));
    expect((await ida.pull()).body.notifications).toHaveLength(1);
    expect(resultOf(await admin.push(hidePostOp(hiddenPost, 'Off topic'))).status).toBe('applied');
    const later = Date.now() + AWAY_MS + 1000;
    await awayRound(server.db, ORIGIN, later);
    expect(await queued()).toEqual([]);
    // Her own post is approved and gets a reply an admin hides since: the email names the approval only.
    const own = await ida.createPost('Ida asks');
    await admin.push(reviewOp(own));
    const hiddenReply = await writer.reply(own, 'A reply soon hidden.');
    expect(resultOf(await admin.push(hideReplyOp(hiddenReply.id))).status).toBe('applied');
    await awayRound(server.db, ORIGIN, later + 2 * AWAY_MS);
    expect(await queued()).toEqual(['Your post “Ida asks” was approved']);
  });

  it('the daily digest leaves out a mention in a post hidden since (issue 59)', async () => {
    const dee = await join('dee@example.com', 'Dee Digest');
    expect((await dee.request('PUT', '/api/account/email-pref', { emailPref: 'digest' })).body.emailPref).toBe('digest');
    const deeId = (await dee.request('GET', '/api/session')).body.user.id as string;
    const writer = await signedIn(server.app, 'hal@example.com');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const kept = await writer.createPost('Kept for the digest', { content: `Hi [@Dee Digest](/members/${deeId}).` });
    const hidden = await writer.createPost('Hidden before the digest', { content: `Hi [@Dee Digest](/members/${deeId}).` });
    for (const id of [kept, hidden]) await admin.push(reviewOp(id));
    expect(resultOf(await admin.push(hidePostOp(hidden))).status).toBe('applied');
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    await digestRound(server.db, ORIGIN, Math.max(noon.getTime(), Date.now()));
    const [digest] = await server.db.query<{ text_body: string }>(
      `SELECT text_body FROM mail_outbox WHERE to_email = 'dee@example.com' AND kind = 'digest'`,
    );
    expect(digest!.text_body).toContain('Kept for the digest');
    expect(digest!.text_body).not.toContain('Hidden before the digest');
  });

  it('an unconfirmed member gets no notification email; the daily digest goes once a day to those who chose it', async () => {
    await join('una@example.com', 'Una Unconfirmed');
    // An account made before issue 59 may be unconfirmed (every new one is confirmed by its link).
    await server.db.query(`UPDATE users SET email_verified_at = NULL WHERE email = 'una@example.com'`);
    await server.db.query(
      `INSERT INTO notifications (id, user_id, kind, post_id, post_title, created_at, seq) SELECT gen_random_uuid(), id, 'approved', 1, 'Old', 0, 0 FROM users WHERE email = 'una@example.com'`,
    );
    expect(await awayRound(server.db, ORIGIN, Date.now() + AWAY_MS * 2)).toBe(0);
    const digester = await join('dev@example.com', 'Dev Digest');
    expect((await digester.request('PUT', '/api/account/email-pref', { emailPref: 'digest' })).body.emailPref).toBe('digest');
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    expect(await digestRound(server.db, ORIGIN, noon.getTime())).toBeGreaterThanOrEqual(1);
    expect(await digestRound(server.db, ORIGIN, noon.getTime() + 60_000)).toBe(0);
    await send();
    await until(() => mailsTo('dev@example.com').some((m) => m.subject === 'Your Insight Exchange daily digest'), 10_000, 'the digest');
    expect(
      mailsTo('dev@example.com')
        .find((m) => m.subject.includes('digest'))!
        .header('list-unsubscribe'),
    ).toContain('/unsubscribe?token=');
  });

  it('the SMTP server down, then up: each message arrives exactly once', async () => {
    smtp.failing = true;
    await new Client(server.app).signIn('sue@example.com', TEST_PASSWORD, 'signup', 'Sue Smtp');
    await send();
    const [row] = await server.db.query<{ attempts: number; last_error: string; sent_at: unknown }>(
      `SELECT attempts, last_error, sent_at FROM mail_outbox WHERE to_email = 'sue@example.com'`,
    );
    // Tried and refused, not sent. The retry is 50 ms away here, so on a slow machine it may
    // already have been tried twice (the count is not the point; nothing arrived).
    expect(Number(row!.attempts)).toBeGreaterThanOrEqual(1);
    expect(row!.last_error).toContain('Try again later');
    expect(row!.sent_at).toBeNull();
    expect(mailsTo('sue@example.com')).toHaveLength(0);
    smtp.failing = false;
    await until(() => mailsTo('sue@example.com').length === 1, 10_000, 'the retried message');
    await send();
    expect(mailsTo('sue@example.com')).toHaveLength(1);
  });

  it('Download my data: one JSON file of the account, posts in every status, replies, flags, saved posts, notifications, sessions; nobody else’s', async () => {
    const owner = await join('dora@example.com', 'Dora Data');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const other = await signedIn(server.app, 'otto@example.com');
    const approved = await owner.createPost('Dora’s approved post');
    await owner.createPost('Dora’s pending post');
    const others = await other.createPost('Otto’s post');
    await admin.push(reviewOp(approved), reviewOp(others));
    await owner.push(replyOp(approved, 'Dora’s own reply'), saveOp(approved), flagOp(others));
    await other.push(replyOp(approved, 'Otto’s reply to Dora'));
    const answer = await owner.request('GET', '/api/account/export');
    expect(answer.status).toBe(200);
    expect(String(answer.headers['content-disposition'])).toMatch(/^attachment; filename="insight-exchange-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = answer.body;
    expect(data.account).toMatchObject({ email: 'dora@example.com', name: 'Dora Data', role: 'user' });
    expect(data.posts.map((post: { title: string; status: string }) => [post.title, post.status]).sort()).toEqual([
      ['Dora’s approved post', 'approved'],
      ['Dora’s pending post', 'pending'],
    ]);
    expect(data.replies.map((reply: { content: string }) => reply.content)).toEqual(['Dora’s own reply']);
    expect(data.savedPosts).toEqual([expect.objectContaining({ postId: approved })]);
    expect(data.flags).toHaveLength(1);
    expect(data.notifications.length).toBeGreaterThanOrEqual(2); // the approval and Otto's reply
    expect(data.sessions).toHaveLength(1);
    expect(data.preferences).toEqual({ emailMe: 'away', theme: 'system' });
    expect(JSON.stringify(data)).not.toContain('otto@example.com');
    expect((await new Client(server.app).request('GET', '/api/account/export')).status).toBe(401);
  });

  it('Delete my account (password again): kept posts show “Deleted member” everywhere with no address; every session is told; the admin cannot', async () => {
    const leaver = await join('lena@example.com', 'Lena Leaving');
    const phone = new Client(server.app);
    await phone.signIn('lena@example.com', TEST_PASSWORD);
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const reader = await signedIn(server.app, 'rex@example.com');
    const postId = await leaver.createPost('Lena’s kept post');
    await admin.push(reviewOp(postId));
    const wrong = await leaver.request('POST', '/api/account/delete', { password: 'not-my-password', keepContent: true });
    expect(wrong).toMatchObject({ status: 403, body: { error: { code: 'wrong_password' } } });
    const adminTry = await admin.request('POST', '/api/account/delete', { password: ADMIN_PASSWORD, keepContent: true });
    expect(adminTry).toMatchObject({ status: 403, body: { error: { code: 'admin_account' } } });
    const before = (await reader.pull()).body.cursor as number;
    expect((await leaver.request('POST', '/api/account/delete', { password: TEST_PASSWORD, keepContent: true })).status).toBe(200);
    expect(await phone.request('GET', '/api/changes?after=0&limit=10')).toMatchObject({
      status: 401,
      body: { error: { code: 'account_deleted' } },
    });
    expect(await leaver.request('GET', '/api/session')).toMatchObject({ status: 401, body: { error: { code: 'account_deleted' } } });
    expect((await new Client(server.app).signIn('lena@example.com', TEST_PASSWORD)).status).toBe(401);
    // Another member's device: the post under "Deleted member"; the admin's: no address left.
    const later = (await reader.pull(before)).body;
    expect(later.posts.find((post: { id: number }) => post.id === postId)).toMatchObject({ author: 'Deleted member', authorEmail: '' });
    const adminView = JSON.stringify((await admin.pull()).body);
    expect(adminView).not.toContain('lena@example.com');
    expect(adminView).toContain('Deleted member');
    expect(
      await server.db.query('SELECT 1 FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.name = $1', ['Lena Leaving']),
    ).toEqual([]);
  });

  it('Delete my account, removing what I wrote: the posts leave every device', async () => {
    const leaver = await join('remy@example.com', 'Remy Removing');
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const reader = await signedIn(server.app, 'ria@example.com');
    const postId = await leaver.createPost('Remy’s removed post');
    await admin.push(reviewOp(postId));
    const before = (await reader.pull()).body;
    expect(before.posts.some((post: { id: number }) => post.id === postId)).toBe(true);
    expect((await leaver.request('POST', '/api/account/delete', { password: TEST_PASSWORD, keepContent: false })).status).toBe(200);
    const after = (await reader.pull(before.cursor)).body;
    expect(after.removed.map((row: { id: number }) => row.id)).toContain(postId);
    expect(await server.db.query('SELECT 1 FROM posts WHERE id = $1', [postId])).toEqual([]);
  });

  it('the authorization matrix of the new routes', async () => {
    const anonymous = new Client(server.app);
    for (const [method, url] of [
      ['GET', '/api/account'],
      ['PUT', '/api/account/email-pref'],
      ['POST', '/api/account/password'],
      ['GET', '/api/account/devices'],
      ['DELETE', '/api/account/devices/abc'],
      ['POST', '/api/account/devices/sign-out-others'],
      ['POST', '/api/account/confirm-email'],
      ['GET', '/api/account/export'],
      ['POST', '/api/account/delete'],
      ['POST', '/api/admin/members/0123456789abcdef/reset-link'],
    ] as const)
      expect(
        (await anonymous.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {})).status,
        `${method} ${url}`,
      ).toBe(401);
    const member = await signedIn(server.app, 'mia@example.com');
    const target = (await findUser(server.db, 'mia@example.com'))!;
    expect((await member.request('POST', `/api/admin/members/${target.memberId}/reset-link`, { send: false })).status).toBe(403);
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const copied = await admin.request('POST', `/api/admin/members/${target.memberId}/reset-link`, { send: false });
    expect(copied).toMatchObject({
      status: 200,
      body: { emailed: false, url: expect.stringMatching(new RegExp(`^${ORIGIN}/reset-password\\?token=`)) },
    });
    const adminRow = (await findUser(server.db, ADMIN_EMAIL))!;
    expect((await admin.request('POST', `/api/admin/members/${adminRow.memberId}/reset-link`, { send: false })).status).toBe(403);
    // The copied link sets a new password for the member.
    const reset = await anonymous.request('POST', '/api/password/reset', {
      token: tokenOf(copied.body.url),
      password: 'admin-gave-me-this-link',
    });
    expect(reset.status).toBe(200);
    // Hostile inputs: a token of the wrong shape, an unknown token, a one-click with none.
    expect(
      (await anonymous.request('POST', '/api/password/reset', { token: '../../etc/passwd', password: 'whatever-long-1' })).status,
    ).toBe(400);
    expect((await anonymous.request('POST', '/api/email/confirm', { token: 'x'.repeat(43) })).status).toBe(410);
    expect((await server.app.inject({ method: 'POST', url: '/api/email/unsubscribe' })).statusCode).toBe(410);
  });
});

describe('two instances on one database', () => {
  it('each message is sent once, whichever instance claims it', async () => {
    const smtp = await startSmtp();
    const first = await testServer('postgres', { origin: ORIGIN });
    const second = await buildApp({ db: first.db, adminEmail: ADMIN_EMAIL, memberLimits: RELAXED_LIMITS });
    const workers = [0, 1].map(
      () => new MailWorker(first.db, { transport: smtpTransport(smtp.url), from: 'no-reply@example.com', pollMs: 60_000 }),
    );
    try {
      for (let i = 0; i < 12; i++)
        await new Client(i % 2 ? second : first.app).signIn(`twin${i}@example.com`, TEST_PASSWORD, 'signup', `Twin Member ${i}`);
      await Promise.all(workers.map((worker) => worker.wake()));
      await until(() => smtp.received.length >= 12, 15_000, 'twelve messages');
      await Promise.all(workers.map((worker) => worker.wake()));
      const to = smtp.received.map((mail) => mail.to).sort();
      expect(to).toEqual([...new Set(to)]);
      expect(to).toHaveLength(12);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await second.close();
      await first.close();
      await smtp.close();
    }
  });
});

describe('a mail server slower than the claim', () => {
  it('the instance sending renews its claim: another instance does not send the message too', async () => {
    const smtp = await startSmtp();
    const server = await testServer('postgres', { origin: ORIGIN });
    const LEASE_MS = 1_000;
    const workers = [0, 1].map(
      () =>
        new MailWorker(server.db, { transport: smtpTransport(smtp.url), from: 'no-reply@example.com', pollMs: 60_000, leaseMs: LEASE_MS }),
    );
    const claim = async () =>
      Number(
        (
          await server.db.query<{ locked_until: unknown }>(`SELECT locked_until FROM mail_outbox WHERE to_email = 'slow-smtp@example.com'`)
        )[0]?.locked_until,
      );
    let release!: () => void;
    smtp.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const arriving = smtp.dataStarted();
      await new Client(server.app).signIn('slow-smtp@example.com', TEST_PASSWORD, 'signup', 'Slow Mail');
      const sending = workers[0]!.wake();
      await arriving;
      // The first claim runs out while the mail server still holds the message's DATA…
      const first = await claim();
      await expect
        .poll(async () => (await claim()) > first && Date.now() > first, {
          timeout: 15_000,
          message: 'the claim renewed past its first end',
        })
        .toBe(true);
      // …and the other instance, looking now, finds nothing to take.
      await workers[1]!.wake();
      release();
      await sending;
      await until(() => smtp.to('slow-smtp@example.com').length >= 1, 15_000, 'the message');
      await Promise.all(workers.map((worker) => worker.wake()));
      expect(smtp.to('slow-smtp@example.com')).toHaveLength(1);
    } finally {
      release();
      smtp.hold = undefined;
      await Promise.all(workers.map((worker) => worker.stop()));
      await server.close();
      await smtp.close();
    }
  });
});

describe.each(BACKENDS)('the database away just as the SMTP server accepted, on %s', (backend) => {
  it('the message is recorded as sent once the database is back, and never sent again', async () => {
    const smtp = await startSmtp();
    const server = await testServer(backend, { origin: ORIGIN });
    const { db } = server;
    // The next two records of "sent" fail as a restart of the database (or of PgBouncer) would.
    let refusals = 2;
    const flaky: Database = {
      kind: db.kind,
      background: db.background,
      query: async <T>(text: string, params?: unknown[]) => {
        if (text.includes('SET sent_at') && refusals > 0) {
          refusals -= 1;
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'CONNECTION_CLOSED' });
        }
        return db.query<T>(text, params);
      },
      transaction: (fn, priority) => db.transaction(fn, priority),
      listen: (channel, onPayload) => db.listen(channel, onPayload),
      close: () => db.close(),
    };
    const worker = new MailWorker(flaky, {
      transport: smtpTransport(smtp.url),
      from: 'no-reply@example.com',
      pollMs: 60_000,
      leaseMs: 30_000,
    });
    try {
      await new Client(server.app).signIn('away-db@example.com', TEST_PASSWORD, 'signup', 'Away Database');
      await worker.wake();
      expect(refusals).toBe(0);
      const [row] = await db.query<{ sent_at: unknown; locked_until: unknown }>(
        `SELECT sent_at, locked_until FROM mail_outbox WHERE to_email = 'away-db@example.com'`,
      );
      expect(row).toMatchObject({ locked_until: null });
      expect(row!.sent_at).not.toBeNull();
      // Looked at again (as another instance would once the lease ran out): nothing more to send.
      await worker.wake();
      expect(smtp.to('away-db@example.com')).toHaveLength(1);
    } finally {
      await worker.stop();
      await server.close();
      await smtp.close();
    }
  });
});

describe('a wake during a round that has already read the queue', () => {
  it('is answered by a round that reads it again: the message queued meanwhile is sent before the wake resolves', async () => {
    const smtp = await startSmtp();
    const server = await testServer('pglite', { origin: ORIGIN });
    const { db } = server;
    // The first claim reads an empty queue, and its answer is held until the message is queued.
    let holdClaim: Promise<void> | undefined;
    let releaseClaim!: () => void;
    let claimRead!: () => void;
    const claimed = new Promise<void>((resolve) => (claimRead = resolve));
    holdClaim = new Promise<void>((resolve) => (releaseClaim = resolve));
    const held: Database = {
      kind: db.kind,
      background: db.background,
      query: async <T>(text: string, params?: unknown[]) => {
        const rows = await db.query<T>(text, params);
        if (text.includes('UPDATE mail_outbox SET locked_until') && holdClaim) {
          const gate = holdClaim;
          holdClaim = undefined;
          claimRead();
          await gate;
        }
        return rows;
      },
      transaction: (fn, priority) => db.transaction(fn, priority),
      listen: (channel, onPayload) => db.listen(channel, onPayload),
      close: () => db.close(),
    };
    const worker = new MailWorker(held, { transport: smtpTransport(smtp.url), from: 'no-reply@example.com', pollMs: 60_000 });
    try {
      const first = worker.wake();
      await claimed;
      await new Client(server.app).signIn('mid-round@example.com', TEST_PASSWORD, 'signup', 'Mid Round');
      const second = worker.wake();
      releaseClaim();
      await first;
      await second;
      expect(smtp.to('mid-round@example.com')).toHaveLength(1);
    } finally {
      releaseClaim();
      await worker.stop();
      await server.close();
      await smtp.close();
    }
  });
});
