import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { readStoredSession } from '../../../src/db/members/session';
import { USER_KEY } from '../../../src/db/contracts';
import { createApi } from '../../../src/sync/api';
import { sendPendingSignOut, signIn, signOut, signUp } from '../../../src/sync/auth';
import { requireAdmin } from '../../../src/db/members/guards';
import { ERRORS, unsentChangesMessage } from '../../../src/shared/errors';
import { countWaiting } from '../../../src/db/ops/outbox';
import { likePost } from '../../../src/db/likes/likes';
import { createPost } from '../../../src/db/posts/posts';
import { connectedDevice } from './harness';
import { isSignOutPending } from '../../../src/db/ops/sync-meta';
import { SyncEngine } from '../../../src/sync/engine';
import { detectMode, resetMode } from '../../../src/sync/mode';
import { DEFAULT_ADMIN_EMAIL, nameFromEmail } from '../../../src/shared/post-rules';
import { confirmEmail } from '../../../src/sync/account';
import { PASSWORD, startServer } from './test-server';

/** The device's sentence for a refused password; the server's must be the same. */
const BAD_CREDENTIALS = ERRORS.bad_credentials.message;

describe('accounts through the server', () => {
  beforeEach(() => resetMode());

  it('a static host (no JSON health) is local-only and signs in on this browser, as before', async () => {
    const api = createApi(async () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }));
    expect(await detectMode(api)).toBe('local');
    const session = await signIn('anyone@example.com', 'whatever', api);
    expect(session).toEqual({ email: 'anyone@example.com', name: 'Anyone', role: 'user' });
  });

  it('connected: signs in through the server; the stored user keeps its shape, no password or token', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    // Create Account answers "check your email" (issue 59); the emailed link makes the account and signs in.
    await expect(signUp('Jane Doe', 'Jane@Example.com ', 'jane-quiet-harbor-7419', api)).rejects.toMatchObject({ code: 'check_email' });
    expect(readStoredSession()).toBeNull();
    const [mail] = await server.db.query<{ text_body: string }>(
      `SELECT text_body FROM mail_outbox WHERE to_email = $1 AND kind = 'signup'`,
      ['jane@example.com'],
    );
    await confirmEmail(mail!.text_body.match(/\/confirm-email\?token=([\w-]+)/)![1]!, { password: 'jane-quiet-harbor-7419' }, api);
    const stored = JSON.parse(localStorage.getItem(USER_KEY)!) as Record<string, unknown>;
    expect(stored).toEqual({ email: 'jane@example.com', name: 'Jane Doe', role: 'user' });
    // The same account on another device needs the same password.
    resetMode();
    const other = createApi(server.device());
    await expect(signIn('jane@example.com', 'wrong', other)).rejects.toThrow(BAD_CREDENTIALS);
    await expect(signIn('jane@example.com', 'jane-quiet-harbor-7419', other)).resolves.toMatchObject({ name: 'Jane Doe' });
  });

  it('connected: Sign In never makes an account; a new password is long and uncommon (said before any request when short)', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await expect(signIn('typo@example.com', 'jane-quiet-harbor-7419', api)).rejects.toThrow(BAD_CREDENTIALS);
    expect(readStoredSession()).toBeNull();
    server.requests.length = 0;
    await expect(signUp('Short Pw', 'short@example.com', 'pw-1', api)).rejects.toMatchObject({
      title: 'Password too short',
      message: 'Use at least 10 characters for your password.',
    });
    expect(server.requests).toEqual([]);
    await expect(signUp('Common Pw', 'common@example.com', 'password123', api)).rejects.toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/^This password is one that many people use/),
    });
    expect(readStoredSession()).toBeNull();
  });

  it('the admin address cannot be claimed by signing up or in with another password', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await expect(signUp('Mallory', DEFAULT_ADMIN_EMAIL, 'mallory-quiet-harbor-7419', api)).rejects.toMatchObject({ code: 'check_email' });
    await expect(signIn(DEFAULT_ADMIN_EMAIL, 'guess', api)).rejects.toThrow(BAD_CREDENTIALS);
    expect(readStoredSession()).toBeNull();
  });

  it('offline on a device that never signed this member in: says so plainly; a returning member gets in', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    expect(await detectMode(api)).toBe('connected');
    server.down = true;
    await expect(signIn('new@example.com', 'pw', api)).rejects.toThrow(ERRORS.offline_sign_in.message);
    server.down = false;
    await server.account('back@example.com');
    await signIn('back@example.com', PASSWORD, api);
    // The verifier is written in the background; wait for it.
    await expect.poll(async () => Boolean((await db.accounts.get('back@example.com'))?.hash), { timeout: 20_000 }).toBe(true);
    await signOut(api);
    expect(readStoredSession()).toBeNull();
    server.down = true;
    await expect(signIn('back@example.com', 'wrong', api)).rejects.toThrow(BAD_CREDENTIALS);
    await expect(signIn('back@example.com', PASSWORD, api)).resolves.toMatchObject({ email: 'back@example.com' });
  });

  it('a device that was connected stays connected when it starts offline', async () => {
    const server = await startServer();
    expect(await detectMode(createApi(server.device()))).toBe('connected');
    resetMode();
    server.down = true;
    expect(await detectMode(createApi(server.device()))).toBe('connected');
  });

  it('roles come from the server when connected (its own admin address), from the device rule otherwise', async () => {
    const server = await startServer({ adminEmail: 'chief@example.com', adminPassword: 'chief-pw' });
    const api = createApi(server.device());
    await signIn('chief@example.com', 'chief-pw', api);
    expect(readStoredSession()).toEqual({ email: 'chief@example.com', name: 'Admin', role: 'admin' });
    expect(requireAdmin().email).toBe('chief@example.com');
    // Before the mode is known, and on a local-only device, the stored role counts for nothing.
    resetMode();
    expect(readStoredSession()?.role).toBe('user');
    expect(() => requireAdmin()).toThrow(ERRORS.admins_only.message);
    const staticHost = createApi(async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }));
    localStorage.clear();
    await db.meta.clear();
    expect(await detectMode(staticHost)).toBe('local');
    localStorage.setItem(USER_KEY, JSON.stringify({ email: 'chief@example.com', name: 'Chief', role: 'admin' }));
    expect(readStoredSession()?.role).toBe('user');
  });

  it('a role edited by hand is replaced by the server’s at the next sync', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await server.account('mallory@example.com');
    await signIn('mallory@example.com', PASSWORD, api);
    localStorage.setItem(USER_KEY, JSON.stringify({ email: 'mallory@example.com', name: 'Mallory', role: 'admin' }));
    expect(readStoredSession()?.role).toBe('admin'); // connected: the stored role stands until the server speaks
    const confirmed: unknown[] = [];
    const engine = new SyncEngine({
      api,
      session: () => readStoredSession() ?? null,
      isOnline: () => true,
      onConfirmed: (user) => confirmed.push(user),
    });
    await engine.sync();
    engine.stop();
    // The account was named after the email.
    expect(confirmed).toEqual([{ email: 'mallory@example.com', name: nameFromEmail('mallory@example.com'), role: 'user' }]);
  });

  it('a sign-in’s answer stands for the first sync’s check of the session, and carries the window’s first page', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(30);
    const api = createApi(server.device());
    await server.account('quick@example.com');
    server.requests.length = 0;
    await signIn('quick@example.com', PASSWORD, api);
    // The first page came with the sign-in's answer (a device that never pulled): nothing else is asked.
    expect(server.requests.filter((request) => request !== 'GET /api/health')).toEqual(['POST /api/session']);
    server.requests.length = 0;
    const engine = new SyncEngine({ api, session: () => readStoredSession() ?? null, isOnline: () => true });
    await engine.sync();
    // No session check, and the first page is not asked again: the next page and the kept part only.
    expect(server.requests.slice(0, 3)).toEqual(['GET /api/posts', 'GET /api/posts', 'GET /api/changes']);
    expect(await db.posts.where('status').equals('approved').count()).toBeGreaterThanOrEqual(30);
    // Once only: another engine (a reload, another tab) asks the server who is signed in.
    server.requests.length = 0;
    const again = new SyncEngine({ api, session: () => readStoredSession() ?? null, isOnline: () => true });
    await again.sync();
    expect(server.requests[0]).toBe('GET /api/session');
    engine.stop();
    again.stop();
  });

  it('a sign-out the server could not hear is remembered and sent once it answers; a new sign-in settles it', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await server.account('commuter@example.com');
    await signIn('commuter@example.com', PASSWORD, api);
    // (The window's first page came with the sign-in's answer: nothing else is in flight.)
    expect(server.requests.at(-1)).toBe('POST /api/session');
    server.down = true;
    await signOut(api);
    expect(readStoredSession()).toBeNull();
    expect(await isSignOutPending()).toBe(true);
    server.down = false;
    server.requests.length = 0;
    await sendPendingSignOut(api);
    expect(server.requests).toEqual(['DELETE /api/session']);
    expect(await isSignOutPending()).toBe(false);
    await sendPendingSignOut(api);
    expect(server.requests).toEqual(['DELETE /api/session']); // nothing waits any more

    await signIn('commuter@example.com', PASSWORD, api);
    server.down = true;
    await signOut(api);
    server.down = false;
    await signIn('commuter@example.com', PASSWORD, api);
    await expect.poll(() => isSignOutPending()).toBe(false);
  });

  it('Log out sends what is queued first, while the session stands; then it ends the session (issue 59, item 1)', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    await likePost(post.id);
    server.requests.length = 0;
    await expect(signOut(device.api, { engine: device.engine, isOnline: () => true })).resolves.toEqual({ signedOut: true });
    expect(server.requests.filter((request) => request !== 'GET /api/changes')).toEqual(['POST /api/ops', 'DELETE /api/session']);
    expect((await server.post(post.id))!.likes).toBe(1);
    expect(readStoredSession()).toBeNull();
    expect(await countWaiting()).toBe(0);
  });

  it('offline, Log out names what cannot be sent and signs nobody out; Log out anyway keeps it for the next sign-in here', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    await likePost(post.id);
    await createPost({ title: 'Written on the train', content: 'Sent when back', category: 'Trends' });
    server.requests.length = 0;
    const offline = { engine: device.engine, isOnline: () => false };
    await expect(signOut(device.api, offline)).resolves.toEqual({ signedOut: false, unsent: 2 });
    expect(readStoredSession()).toMatchObject({ email: 'member@example.com' });
    expect(server.requests).toEqual([]);
    await expect(signOut(device.api, { ...offline, force: true })).resolves.toEqual({ signedOut: true });
    expect(readStoredSession()).toBeNull();
    expect(await countWaiting('member@example.com')).toBe(2);
    // Nothing is sent with the ended session: the engine has no one to send for.
    server.requests.length = 0;
    await device.engine.sync();
    expect(server.requests).toEqual([]);
  });

  it('a server too slow to take the queue within the wait: Log out names what is left', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    await likePost(post.id);
    const stuck = { retry: () => new Promise<void>(() => undefined) };
    await expect(signOut(device.api, { engine: stuck, isOnline: () => true, waitMs: 10 })).resolves.toEqual({
      signedOut: false,
      unsent: 1,
    });
    expect(readStoredSession()).not.toBeNull();
  });

  it('the dialog’s sentence: plural, and singular for one change', () => {
    expect(unsentChangesMessage(2)).toBe('2 changes are not sent yet: they will be sent the next time you sign in here.');
    expect(unsentChangesMessage(1)).toBe('1 change is not sent yet: it will be sent the next time you sign in here.');
  });
});
