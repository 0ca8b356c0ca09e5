// The first sync's requests sent while its code loads (src/sync/early.ts, issue 64 item 4): a page of
// a connected device where a member is signed in sends GET /api/session, and on a device that has
// never pulled GET /api/posts for the forum's first page, before the engine, the client and zod have
// loaded. The engine's own requests of the same paths take those answers instead of asking again,
// once each and only for a while; what the answers mean is decided as before. On a device that has
// never pulled, a copy of both answers paints the forum's first page before the engine has loaded
// (src/sync/early-page.ts), only for the member the server names and this device holds.
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { META_KEYS } from '../../../src/db/contracts';
import { readCursor } from '../../../src/db/ops/sync-meta';
import { saveSession } from '../../../src/db/members/session';
import { createApi } from '../../../src/sync/api';
import { WINDOW_FIRST_PAGE } from '../../../src/sync/confirmed';
import { EARLY_FOR_MS, forumPagePath, peekEarly, sendEarly, takeEarly } from '../../../src/sync/early';
import { readWindow } from '../../../src/db/sync/window';
import { storeServerPosts } from '../../../src/db/posts/pulled';
import { SYNC_META } from '../../../src/db/ops/sync-meta';
import { sendFirstRequests } from '../../../src/sync/start';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

const approvedIds = () => db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).primaryKeys();
const FIRST_PAGE = forumPagePath({ limit: WINDOW_FIRST_PAGE });

/** A fetch that answers "signed out" (GET /api/session: no one) and counts its calls. */
function counting() {
  const calls: { path: string; method: string }[] = [];
  const fetchImpl = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ path: String(input), method: init?.method ?? 'GET' });
    return new Response(JSON.stringify({ error: { code: 'signed_out', message: 'Sign in to sync.' } }), {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  });
  return { calls, fetchImpl };
}

afterEach(() => {
  // Nothing left waiting for the next case.
  takeEarly('/api/session');
  takeEarly(FIRST_PAGE);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the first sync asked early', () => {
  it("a device that never pulled: the engine takes both early answers, asks neither again, and stores the forum's posts", async () => {
    const server = await startServer();
    await server.insertApprovedPosts(WINDOW_FIRST_PAGE + 5);
    const browser = await server.signedInDevice('member@example.com');
    const device = await connectedDevice(server, 'member@example.com', { api: createApi(browser) });
    expect(await readCursor()).toBe(0);
    const asked: string[] = [];
    server.fault = ({ method, url }) => {
      asked.push(`${method} ${url.pathname}${url.search}`);
      return undefined;
    };
    const sent: Promise<Response>[] = [];
    expect(
      await sendFirstRequests((input, init) => {
        const answer = browser(String(input), init);
        sent.push(answer);
        return answer;
      }),
    ).toBe(true);
    await Promise.all(sent);
    expect(asked).toEqual(['GET /api/session', `GET ${FIRST_PAGE}`]);
    // Painted before the engine ran: the newest page of approved posts, the window's head with it,
    // and the device still waiting for its first pull.
    const newest = (await server.posts())
      .filter((post) => post.status === 'approved')
      .map((post) => post.id)
      .sort((a, b) => b - a)
      .slice(0, WINDOW_FIRST_PAGE);
    expect((await approvedIds()).sort()).toEqual([...newest].sort());
    expect(await readCursor()).toBe(0);
    expect((await readWindow()).head).toBe(await server.head());

    await device.engine.sync();
    device.engine.stop();
    server.fault = undefined;
    // The session was checked and the first page read once each: the early answers stood for the engine's.
    expect(asked.filter((request) => request === 'GET /api/session')).toHaveLength(1);
    expect(asked.filter((request) => request === `GET ${FIRST_PAGE}`)).toHaveLength(1);
    const onServer = (await server.posts()).filter((post) => post.status === 'approved').map((post) => post.id);
    expect((await approvedIds()).sort()).toEqual([...onServer].sort());
    expect(await readCursor()).toBe(await server.head());
  });

  it('sends the session check alone on a device that has pulled, nothing when no one is signed in or the browser is offline, and drops them when the member changes', async () => {
    const { calls, fetchImpl } = counting();
    await sendFirstRequests(fetchImpl);
    expect(calls).toEqual([]); // no member signed in on this device

    saveSession({ email: 'member@example.com', name: 'Member', role: 'user' });
    await db.meta.put({ key: META_KEYS.syncCursor, value: 12 });
    await sendFirstRequests(fetchImpl);
    expect(calls).toEqual([{ path: '/api/session', method: 'GET' }]);
    takeEarly('/api/session');

    // Another member signs in before the engine took them: they are no longer anyone's answers.
    await db.meta.put({ key: META_KEYS.syncCursor, value: 0 });
    await sendFirstRequests(fetchImpl);
    expect(calls.slice(1).map((call) => call.path)).toEqual(['/api/session', FIRST_PAGE]);
    saveSession({ email: 'member@example.com', name: 'Member renamed', role: 'user' });
    expect(takeEarly(FIRST_PAGE)).toBeDefined(); // the same member: still theirs
    await sendFirstRequests(fetchImpl);
    saveSession({ email: 'other@example.com', name: 'Other', role: 'user' });
    expect(takeEarly('/api/session')).toBeUndefined();
    expect(takeEarly(FIRST_PAGE)).toBeUndefined();
    calls.length = 1;

    // A browser that knows it is offline (Node's navigator has no onLine: set one for this case).
    vi.stubGlobal('navigator', { onLine: false });
    await sendFirstRequests(fetchImpl);
    expect(calls).toHaveLength(1);
    vi.unstubAllGlobals();
  });

  it("an early answer is taken once, within its time, by the client's GET of the same path only", async () => {
    const { calls, fetchImpl } = counting();
    const api = createApi(fetchImpl);
    const early = counting();

    sendEarly('/api/session', early.fetchImpl);
    sendEarly('/api/session', early.fetchImpl); // one at a time
    expect(early.calls).toHaveLength(1);
    await api.currentUser();
    expect(calls).toHaveLength(0); // answered by the early request
    await api.currentUser();
    expect(calls).toHaveLength(1); // once only

    // Too old to stand for a check made now.
    sendEarly('/api/session', early.fetchImpl, Date.now() - EARLY_FOR_MS - 1);
    await api.currentUser();
    expect(calls).toHaveLength(2);

    // A client on another origin never takes this page's answers.
    sendEarly('/api/session', early.fetchImpl);
    await createApi(fetchImpl, 'https://elsewhere.example').currentUser();
    expect(calls.at(-1)?.path).toBe('https://elsewhere.example/api/session');
    expect(takeEarly('/api/session')).toBeDefined();
  });

  it('a failed early request is asked again by the client; a POST of the same path never takes one', async () => {
    const { calls, fetchImpl } = counting();
    const api = createApi(fetchImpl);
    sendEarly('/api/session', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.currentUser()).resolves.toBeNull();
    expect(calls).toEqual([{ path: '/api/session', method: 'GET' }]);

    const early = counting();
    sendEarly('/api/session', early.fetchImpl);
    await api.signOut().catch(() => undefined);
    expect(calls.at(-1)?.method).not.toBe('GET');
    expect(takeEarly('/api/session')).toBeDefined(); // still waiting for a GET
  });

  describe('the first page painted before the engine loads', () => {
    /** A device that never pulled, where `email` is signed in, its browser's cookie `cookieOf`'s; the page's answer held until `release`. */
    async function device(email: string, cookieOf = email) {
      const server = await startServer();
      await server.insertApprovedPosts(WINDOW_FIRST_PAGE + 5);
      await connectedDevice(server, email);
      const browser = await server.signedInDevice(cookieOf);
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
        if (String(input) === FIRST_PAGE) await held;
        return browser(String(input), init);
      };
      return { server, fetchImpl, release };
    }

    it("stores nothing when the server's session is another member's", async () => {
      const { fetchImpl, release } = await device('member@example.com', 'other@example.com');
      release();
      expect(await sendFirstRequests(fetchImpl)).toBe(false);
      expect(await approvedIds()).toEqual([]);
      expect((await readWindow()).head).toBeUndefined();
    });

    it('stores nothing when another member signs in before the page comes', async () => {
      const { fetchImpl, release } = await device('member@example.com');
      const sent = sendFirstRequests(fetchImpl);
      await vi.waitFor(() => expect(peekEarly(FIRST_PAGE)).toBeDefined());
      saveSession({ email: 'other@example.com', name: 'Other', role: 'user' });
      release();
      expect(await sent).toBe(false);
      expect(await approvedIds()).toEqual([]);
    });

    it("stores nothing once the device has pulled meanwhile, without a window (the whole forum, posts kept from before), or when it holds another member's data", async () => {
      const pulled = await device('member@example.com');
      const sent = sendFirstRequests(pulled.fetchImpl);
      await vi.waitFor(() => expect(peekEarly(FIRST_PAGE)).toBeDefined());
      await db.meta.put({ key: SYNC_META.cursor, value: 7 });
      pulled.release();
      expect(await sent).toBe(false);
      expect(await approvedIds()).toEqual([]);

      takeEarly('/api/session');
      takeEarly(FIRST_PAGE);
      await db.meta.put({ key: SYNC_META.cursor, value: 0 });
      // Download the whole forum: the pull from the start takes every post, never above a first page's head.
      await db.meta.put({ key: META_KEYS.windowWhole, value: 1 });
      expect(await sendFirstRequests(pulled.fetchImpl)).toBe(false);
      expect(await approvedIds()).toEqual([]);
      expect((await readWindow()).head).toBeUndefined();

      // Posts kept from before (a member switch): the first sync pulls every post's rows, without a window.
      takeEarly('/api/session');
      takeEarly(FIRST_PAGE);
      await db.meta.delete(META_KEYS.windowWhole);
      const kept = await createApi(await pulled.server.signedInDevice('member@example.com')).posts!({ limit: 1 });
      await storeServerPosts(kept.posts, 0);
      expect(await sendFirstRequests(pulled.fetchImpl)).toBe(false);
      expect(await approvedIds()).toEqual(kept.posts.map((post) => post.id));
      expect((await readWindow()).head).toBeUndefined();
      await db.posts.clear();

      takeEarly('/api/session');
      takeEarly(FIRST_PAGE);
      await db.meta.put({ key: SYNC_META.owner, value: 'other@example.com' });
      pulled.release();
      expect(await sendFirstRequests(pulled.fetchImpl)).toBe(false);
      expect(await approvedIds()).toEqual([]);
    });

    it('stores nothing from a refused or failed answer, and leaves the answers to the engine', async () => {
      const { calls, fetchImpl } = counting();
      saveSession({ email: 'member@example.com', name: 'Member', role: 'user' });
      expect(await sendFirstRequests(fetchImpl)).toBe(false);
      expect(calls.map((call) => call.path)).toEqual(['/api/session', FIRST_PAGE]);
      expect(takeEarly('/api/session')).toBeDefined();
      expect(takeEarly(FIRST_PAGE)).toBeDefined();

      expect(await sendFirstRequests(() => Promise.reject(new TypeError('Failed to fetch')))).toBe(false);
      expect(await approvedIds()).toEqual([]);
    });
  });
});
