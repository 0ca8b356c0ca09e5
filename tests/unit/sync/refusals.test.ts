// Answers only a misbehaving, older or newer server (or a proxy in front of it) gives, from a
// scripted `fetch`: a code this build does not know, an old server's 500 for a whole batch, a
// proxy's error page, a stricter body limit. What the real server answers is tested against it in
// refusals-server.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { errorToast } from '../../../src/components/toast/error-toast';
import { db } from '../../../src/db/storage/schema';
import { likePost } from '../../../src/db/likes/likes';
import { countSetAside, countWaiting, MAX_FAILURES, SET_ASIDE_AFTER_MS } from '../../../src/db/ops/outbox';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { readStoredSession } from '../../../src/db/members/session';
import { ERRORS } from '../../../src/shared/errors';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type Op } from '../../../src/shared/protocol';
import { createApi, type Fetch } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { SyncEngine } from '../../../src/sync/engine';
import { resetMode } from '../../../src/sync/mode';
import { getSyncStatus, onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { makePost, signInAs, storePosts, synced } from '../factories';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const health = () => json(200, { ok: true, database: 'pglite', version: 'test', protocol: PROTOCOL_VERSION });
const refusal = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/** A server that answers health, and `answer` for everything else; it records the requests. */
function scripted(
  answer: (path: string, body: unknown) => Response | Promise<Response>,
): Fetch & { seen: { path: string; headers: Headers }[] } {
  const seen: { path: string; headers: Headers }[] = [];
  const fetch = async (input: string, init: RequestInit = {}) => {
    const path = new URL(input, 'http://localhost').pathname;
    seen.push({ path, headers: new Headers(init.headers) });
    if (path === '/api/health') return health();
    return answer(path, init.body ? JSON.parse(String(init.body)) : undefined);
  };
  return Object.assign(fetch, { seen });
}

describe('a sign-in a newer server refuses', () => {
  beforeEach(() => resetMode());

  it('with a code this build does not know: the server’s own sentence under the generic title', async () => {
    const api = createApi(scripted(() => refusal(400, 'some_new_rule', 'A rule from a newer server says no.')));
    const error = await signIn('member@example.com', 'pw', api).catch((caught: unknown) => caught);
    expect(errorToast(error)).toMatchObject({ title: 'Error', description: 'A rule from a newer server says no.' });
    expect(readStoredSession()).toBeNull();
  });

  it('every request says which protocol version this build speaks', async () => {
    const fetch = scripted(() => refusal(401, 'bad_credentials', ERRORS.bad_credentials.message));
    await signIn('member@example.com', 'pw', createApi(fetch)).catch(() => undefined);
    expect(fetch.seen.length).toBeGreaterThan(0);
    for (const request of fetch.seen) expect(request.headers.get(PROTOCOL_HEADER)).toBe(String(PROTOCOL_VERSION));
  });
});

/** A connected device signed in as member@example.com against `fetch`; timers are collected, not run. */
async function device(fetch: Fetch, now: () => number = Date.now) {
  await markConnected();
  signInAs('member@example.com', 'Member');
  const notices: SyncNotice[] = [];
  onSyncNotice((notice) => notices.push(notice));
  const timers: unknown[] = [];
  let outdated = 0;
  const engine = new SyncEngine({
    api: createApi(fetch),
    session: () => readStoredSession() ?? null,
    isOnline: () => true,
    setTimer: (callback) => timers.push(callback),
    clearTimer: () => undefined,
    random: () => 1,
    now,
    onOutdated: () => (outdated += 1),
  });
  return { engine, notices, timers, outdated: () => outdated };
}

const user = { user: { email: 'member@example.com', name: 'Member', role: 'user' } };
const emptyPull = { posts: [], cursor: 0, more: false };

describe('the sync engine and the server’s refusals', () => {
  beforeEach(() => resetSyncStatus());

  it('an operation the server keeps failing on (MAX_FAILURES over a minute) is set aside, with a notice, and the rest flows', async () => {
    await storePosts(synced(makePost({ id: 1, status: 'approved' })), synced(makePost({ id: 2, status: 'approved' })));
    const applied: number[] = [];
    const fetch = scripted((path, body) => {
      if (path === '/api/session') return json(200, user);
      if (path === '/api/changes') return json(200, emptyPull);
      const ops = (body as { ops: (Op & { postId: number })[] }).ops;
      // Like an old server's bug: any batch holding the like of post 1 answers 500 with no results.
      if (ops.some((op) => op.postId === 1)) return refusal(500, 'server_error', ERRORS.server_error.message);
      applied.push(...ops.map((op) => op.postId));
      return json(200, { results: ops.map((op) => ({ id: op.id, status: 'applied' })), cursor: 0 });
    });
    let clock = 1_000_000;
    const { engine, notices, timers } = await device(fetch, () => (clock += SET_ASIDE_AFTER_MS / 2));
    await likePost(1);
    await likePost(2);
    for (let attempt = 1; attempt <= MAX_FAILURES; attempt += 1) await engine.sync();
    expect(await countSetAside('member@example.com')).toBe(1);
    expect(await countWaiting('member@example.com')).toBe(0);
    expect(applied).toEqual([2]);
    expect(notices).toEqual([{ title: 'Change set aside', description: ERRORS.set_aside.message }]);
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    // Backed off after each of the first failures; none after it was set aside.
    expect(timers).toHaveLength(MAX_FAILURES - 1);
    // The like stays on this device (nothing is undone), but is never sent again.
    expect((await db.posts.get(1))!.likes).toBe(1);
    const before = fetch.seen.length;
    await engine.sync();
    expect(fetch.seen.slice(before).map((request) => request.path)).not.toContain('/api/ops');
  });

  it('a server-wide fault (503, a proxy’s error page, quick failures) never sets anything aside', async () => {
    await storePosts(synced(makePost({ id: 4, status: 'approved' })));
    let answer = (): Response => refusal(503, 'database_unavailable', ERRORS.database_unavailable.message);
    const fetch = scripted((path) => {
      if (path === '/api/session') return json(200, user);
      if (path === '/api/changes') return json(200, emptyPull);
      return answer();
    });
    const { engine } = await device(fetch);
    await likePost(4);
    for (let attempt = 0; attempt < 5; attempt += 1) await engine.sync();
    answer = () => new Response('<html>Bad gateway</html>', { status: 520, headers: { 'content-type': 'text/html' } });
    for (let attempt = 0; attempt < 5; attempt += 1) await engine.sync();
    // The server's own server_error, but three in a few seconds: a passing fault, not this operation's.
    answer = () => refusal(500, 'server_error', ERRORS.server_error.message);
    for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) await engine.sync();
    expect(await countSetAside('member@example.com')).toBe(0);
    expect(await countWaiting('member@example.com')).toBe(1);
  });

  it('a batch refused whole (413) is sent again one operation at a time, so nothing blocks the queue', async () => {
    await storePosts(synced(makePost({ id: 5, status: 'approved' })), synced(makePost({ id: 6, status: 'approved' })));
    const fetch = scripted((path, body) => {
      if (path === '/api/session') return json(200, user);
      if (path === '/api/changes') return json(200, emptyPull);
      const ops = (body as { ops: Op[] }).ops;
      if (ops.length > 1) return refusal(413, 'too_large', ERRORS.too_large.message);
      return json(200, { results: [{ id: ops[0]!.id, status: 'applied' }], cursor: 0 });
    });
    const { engine } = await device(fetch);
    await likePost(5);
    await likePost(6);
    await engine.sync();
    expect(await countWaiting('member@example.com')).toBe(0);
    expect(getSyncStatus()).toMatchObject({ state: 'synced' });
  });
});
