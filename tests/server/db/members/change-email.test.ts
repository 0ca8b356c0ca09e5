// Change email (issue 59, item 3): the current password, then a link to the new address; nothing
// changes until it is used, the old address is told, and the member's posts, replies and sessions
// follow the account to its new address. Who may do it, and which links are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_SENT_MESSAGE, EMAIL_CHANGED_MESSAGE } from '../../../../server/routes/api/account';
import { ADMIN_EMAIL_FIXED_MESSAGE } from '../../../../src/shared/account';
import { ERRORS } from '../../../../src/shared/errors';
import { Client, signedIn, TEST_PASSWORD } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

describe.each(BACKENDS)('Change email on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend);
  });
  afterAll(() => server.close());

  /** The emails of `kind` queued to `to`, newest first. */
  const mails = async (to: string, kind: string) =>
    server.db.query<{ subject: string; text_body: string }>(
      'SELECT subject, text_body FROM mail_outbox WHERE to_email = $1 AND kind = $2 ORDER BY id DESC',
      [to, kind],
    );
  /** The token of the newest Change email link sent to `to`. */
  const changeToken = async (to: string) =>
    (await mails(to, 'emailChange'))[0]?.text_body.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
  const ask = (client: Client, email: string, password = TEST_PASSWORD) =>
    client.request('POST', '/api/account/email', { email, password });
  const follow = (client: Client, token: string) => client.request('POST', '/api/email/confirm', { token });
  const emailOf = async (client: Client) => (await client.request('GET', '/api/session')).body.user?.email;

  it('a link to the new address, nothing changed until it is used; then the posts, replies and session follow, and the old address is told', async () => {
    const member = await signedIn(server.app, 'nora@example.com');
    const other = await signedIn(server.app, 'olga@example.com');
    const postId = await member.createPost('Nora’s post');
    await server.db.query(`UPDATE posts SET status = 'approved' WHERE id = $1`, [postId]);
    const reply = await member.reply(postId, 'Nora’s reply.');
    const otherPost = await other.createPost('Olga’s post');
    const before = await member.pull();
    const authorId = before.body.posts.find((post: { id: number }) => post.id === postId).authorId;

    const asked = await ask(member, 'nora.new@example.net');
    expect(asked).toMatchObject({ status: 202, body: { message: EMAIL_CHANGE_SENT_MESSAGE } });
    expect(await emailOf(member)).toBe('nora@example.com');
    const token = await changeToken('nora.new@example.net');
    expect(token).toBeDefined();

    // The link opens on any device (the mail program's browser): no session needed.
    const cursor = before.body.cursor;
    expect(await follow(new Client(server.app), token!)).toMatchObject({ status: 200, body: { message: EMAIL_CHANGED_MESSAGE } });
    // The signed-in device goes on, and learns the new address.
    expect(await emailOf(member)).toBe('nora.new@example.net');
    expect((await member.request('GET', '/api/account')).body).toMatchObject({ email: 'nora.new@example.net', emailVerified: true });
    // Its posts and replies are still its own (same public id), and its devices pull them again.
    const after = await member.pull(cursor);
    expect(after.body.posts.map((post: { id: number; authorId: string }) => [post.id, post.authorId])).toEqual([[postId, authorId]]);
    expect(after.body.replies.map((row: { id: string }) => row.id)).toEqual([reply.id]);
    const rows = await server.db.query<{ n: unknown }>(
      `SELECT (SELECT count(*) FROM posts WHERE author_email = 'nora@example.com') + (SELECT count(*) FROM replies WHERE author_email = 'nora@example.com') AS n`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await server.db.query('SELECT 1 FROM posts WHERE id = $1 AND author_email = $2', [otherPost, 'olga@example.com'])).length).toBe(
      1,
    );
    // The old address is told, with the new one half hidden.
    const [told] = await mails('nora@example.com', 'emailChanged');
    expect(told!.text_body).toContain('n***@example.net');
    expect(told!.text_body).not.toContain('nora.new@example.net');
    expect(told!.text_body).toMatch(/If this wasn't you, reset your password/);
    // Sign In takes the new address, not the old one.
    expect((await new Client(server.app).signIn('nora.new@example.net')).status).toBe(200);
    expect((await new Client(server.app).signIn('nora@example.com')).status).toBe(401);
    // A used link is refused with a sentence.
    expect(await follow(new Client(server.app), token!)).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
  });

  it('the address the account has is told when a change is asked for; a password changed before the link is used cancels it', async () => {
    const member = await signedIn(server.app, 'tess@example.com');
    expect((await ask(member, 'tess.thief@example.net')).status).toBe(202);
    // Told at once, before anything changes, with the new address half hidden and what to do.
    const [asked] = await mails('tess@example.com', 'emailChangeAsked');
    expect(asked!.subject).toBe('Someone asked to change your Insight Exchange email');
    expect(asked!.text_body).toContain('t***@example.net');
    expect(asked!.text_body).not.toContain('tess.thief@example.net');
    expect(asked!.text_body).toMatch(/If this wasn't you, change your password now: it cancels the change/);
    const token = await changeToken('tess.thief@example.net');
    // The owner changes the password: the link no longer moves the account.
    const changed = await member.request('POST', '/api/account/password', { current: TEST_PASSWORD, password: 'a-new-long-passphrase-9' });
    expect(changed.status).toBe(200);
    expect(await follow(new Client(server.app), token!)).toMatchObject({ status: 410, body: { error: { code: 'link_expired' } } });
    expect(await emailOf(member)).toBe('tess@example.com');
  });

  it('refuses the anonymous, a wrong current password and a suspended member, and sends nothing', async () => {
    expect((await ask(new Client(server.app), 'x@example.net')).status).toBe(401);
    const member = await signedIn(server.app, 'pat@example.com');
    expect(await ask(member, 'pat.new@example.net', 'not-my-password-at-all')).toMatchObject({
      status: 403,
      body: { error: { code: 'wrong_password', message: ERRORS.wrong_password.message } },
    });
    const userId = (await server.db.query<{ id: unknown }>('SELECT id FROM users WHERE email = $1', ['pat@example.com']))[0]!.id;
    await server.db.query('UPDATE users SET suspended_until = $2 WHERE id = $1', [userId, Date.now() + 86_400_000]);
    expect((await ask(member, 'pat.new@example.net')).body.error.code).toBe('suspended');
    expect(await mails('pat.new@example.net', 'emailChange')).toHaveLength(0);
  });

  it('answers alike for an address that has an account, which is sent nothing; an address taken meanwhile is refused with a sentence', async () => {
    const member = await signedIn(server.app, 'quinn@example.com');
    await signedIn(server.app, 'taken@example.com');
    const free = await ask(member, 'quinn.new@example.net');
    const taken = await ask(member, 'taken@example.com');
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual(free.body);
    expect(await mails('taken@example.com', 'emailChange')).toHaveLength(0);

    const token = await changeToken('quinn.new@example.net');
    await signedIn(server.app, 'quinn.new@example.net');
    expect(await follow(member, token!)).toMatchObject({
      status: 409,
      body: { error: { code: 'email_taken', message: ERRORS.email_taken.message } },
    });
    expect(await emailOf(member)).toBe('quinn@example.com');
  });

  it('refuses a wrong or expired link; another member’s link changes only that member', async () => {
    const mine = await signedIn(server.app, 'rae@example.com');
    const theirs = await signedIn(server.app, 'sid@example.com');
    expect((await follow(mine, 'x'.repeat(43))).body.error.code).toBe('link_expired');

    await ask(mine, 'rae.new@example.net');
    await server.db.query(`UPDATE account_tokens SET expires_at = 1 WHERE purpose = 'email_change' AND email = 'rae.new@example.net'`);
    expect(await follow(mine, (await changeToken('rae.new@example.net'))!)).toMatchObject({
      status: 410,
      body: { error: { code: 'link_expired', message: ERRORS.link_expired.message } },
    });
    expect(await emailOf(mine)).toBe('rae@example.com');

    await ask(theirs, 'sid.new@example.net');
    expect((await follow(mine, (await changeToken('sid.new@example.net'))!)).status).toBe(200);
    expect(await emailOf(mine)).toBe('rae@example.com');
    expect(await emailOf(theirs)).toBe('sid.new@example.net');
  });

  it('refuses the admin’s own change with a sentence and sends nothing: the next start would make a second admin at ADMIN_EMAIL', async () => {
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await admin.request('POST', '/api/account/email', { email: 'boss@example.net', password: ADMIN_PASSWORD })).toMatchObject({
      status: 403,
      body: { error: { code: 'admin_account', message: ADMIN_EMAIL_FIXED_MESSAGE } },
    });
    expect(await mails('boss@example.net', 'emailChange')).toEqual([]);
    expect((await admin.request('GET', '/api/session')).body.user).toMatchObject({ email: ADMIN_EMAIL, role: 'admin' });
  });
});
