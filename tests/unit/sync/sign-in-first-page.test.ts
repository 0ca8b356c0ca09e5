// Sign In's answer carries the window's first page (issue 64, item 5): a device that has never pulled
// asks for it with the password, so the forum paints without a second round trip. The first sync
// stores it as the window's first page (storeForumPage, its change head), and the pull that follows
// brings what changed after it was read: nothing missed, nothing counted twice.
import { beforeEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { db } from '../../../src/db/storage/schema';
import { readStoredSession } from '../../../src/db/members/session';
import { readCursor } from '../../../src/db/ops/sync-meta';
import { META_KEYS } from '../../../src/db/contracts';
import { createApi } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { SyncEngine } from '../../../src/sync/engine';
import { resetMode } from '../../../src/sync/mode';
import { WINDOW_FIRST_PAGE } from '../../../src/sync/confirmed';
import { PASSWORD, startServer } from './test-server';

const approvedIds = () => db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).primaryKeys();

describe('Sign In carries the first page', () => {
  beforeEach(() => resetMode());

  it('a new device: no page asked for after the answer; the sync stores it once, and the pull brings what changed after it', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(WINDOW_FIRST_PAGE + 10);
    await server.account('new.device@example.com');
    const browser = server.device();
    const bodies: unknown[] = [];
    const api = createApi(async (input, init) => {
      if (String(input).endsWith('/api/session') && init?.method === 'POST') bodies.push(JSON.parse(String(init.body)));
      return browser(input, init);
    });
    const asked: string[] = [];
    server.fault = ({ url }) => {
      if (url.pathname.startsWith('/api/posts') || url.pathname === '/api/changes') asked.push(`${url.pathname}?${url.searchParams}`);
      return undefined;
    };
    server.requests.length = 0;
    await signIn('new.device@example.com', PASSWORD, api);
    // Before: the device asked GET /api/posts?limit=20 once the answer came.
    expect(server.requests.filter((request) => request !== 'GET /api/health')).toEqual(['POST /api/session']);
    expect(bodies).toEqual([expect.objectContaining({ firstPage: WINDOW_FIRST_PAGE })]);

    // Meanwhile, on the server: a carried post is liked, and a new post comes.
    const newest = (await server.posts()).filter((post) => post.status === 'approved').at(-1)!;
    await (await server.member('fan@example.com')).like(newest.id);
    const later = await server.addPost({ title: 'Written after the sign-in' });

    const engine = new SyncEngine({ api, session: () => readStoredSession() ?? null, isOnline: () => true });
    await engine.sync();
    engine.stop();
    // The first page is not asked for again: the window goes on below it, then the pull.
    expect(asked[0]).toMatch(/^\/api\/posts\?part=newest&limit=\d+&before=\d+$/);
    expect(asked.some((one) => one === `/api/posts?part=newest&limit=${WINDOW_FIRST_PAGE}`)).toBe(false);
    const onServer = (await server.posts()).filter((post) => post.status === 'approved').map((post) => post.id);
    expect((await approvedIds()).sort()).toEqual([...onServer].sort());
    expect(await db.posts.get(later.id)).toMatchObject({ title: 'Written after the sign-in' });
    // The like made after the page was read arrives once.
    expect((await db.posts.get(newest.id))?.likes).toBe(1);
    expect(await readCursor()).toBe(await server.head());
  });

  it('a device that has pulled before does not ask for it: the answer carries none', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(5);
    await server.account('returning@example.com');
    await db.meta.put({ key: META_KEYS.syncCursor, value: 1 });
    expect(await readCursor()).toBe(1);
    const bodies: unknown[] = [];
    const browser = server.device();
    const api = createApi(async (input, init) => {
      if (String(input).endsWith('/api/session') && init?.method === 'POST') bodies.push(JSON.parse(String(init.body)));
      return browser(input, init);
    });
    await signIn('returning@example.com', PASSWORD, api);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('firstPage');
  });
});
