// A new device takes a window of the forum (issue 44) against the real server in-process: the
// newest WINDOW_POSTS approved posts newest first (a small first page), its member's own and saved
// posts, then the pull from the start above the window's head; a failure midway resumes; what
// changes afterwards keeps arriving, even on posts it does not hold; past the budget the oldest
// leave, never the member's own, saved or queued posts; Download the whole forum brings the rest.
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { META_KEYS } from '../../../src/db/contracts';
import { readCursor } from '../../../src/db/ops/sync-meta';
import { likePost } from '../../../src/db/likes/likes';
import { downloadWholeForum, holdsPart } from '../../../src/db/sync/free-space';
import { keepWithinBudget, readWindow, WINDOW_POSTS } from '../../../src/db/sync/window';
import { WINDOW_FIRST_PAGE } from '../../../src/sync/confirmed';
import { PAGE_SIZE } from '../../../src/db/posts/posts';
import { getSyncStatus } from '../../../src/sync/status';
import { fetchPost, loadOlderPosts, OLDER_PAGE, resetOlderPages } from '../../../src/sync/window';
import { isDataError } from '../../../src/db/storage/errors';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

const approvedIds = () => db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).primaryKeys();

describe('a window of the forum', () => {
  it('a new device holds the newest posts, its own and saved ones, and nothing else; the rest comes on asking', async () => {
    const server = await startServer();
    const mine = await server.addPost({ authorEmail: 'member@example.com', title: 'My old post' });
    const saved = await server.addPost({ title: 'An old post I saved' });
    await (await server.member('member@example.com')).push({ id: crypto.randomUUID(), type: 'save', postId: saved.id, saved: true });
    await server.insertApprovedPosts(WINDOW_POSTS + 100);
    const all = (await server.posts()).filter((post) => post.status === 'approved').map((post) => post.id);
    const device = await connectedDevice(server);
    const asked: string[] = [];
    server.fault = ({ url }) => {
      if (url.pathname.startsWith('/api/posts') || url.pathname === '/api/changes') asked.push(`${url.pathname}?${url.searchParams}`);
      return undefined;
    };
    await device.engine.sync();
    server.fault = undefined;
    expect(getSyncStatus().state).toBe('synced');
    // A small first page (the forum's first page, painted at once), then full ones up to the window, then the kept part.
    expect(WINDOW_FIRST_PAGE).toBe(PAGE_SIZE);
    expect(asked[0]).toBe(`/api/posts?part=newest&limit=${WINDOW_FIRST_PAGE}`);
    expect(asked.filter((url) => url.includes('part=kept'))).toHaveLength(1);
    const held = await approvedIds();
    const newest = [...all].sort((a, b) => b - a).slice(0, WINDOW_POSTS);
    expect(held.length).toBe(WINDOW_POSTS + 2);
    expect(new Set(held)).toEqual(new Set([...newest, mine.id, saved.id]));
    // The pull from the start asked for a post's rows only above the window's head.
    const window = await readWindow();
    expect(window.head).toBeUndefined(); // its pull has ended
    expect(asked.some((url) => url.startsWith('/api/changes?after=0') && url.includes('postsAfter='))).toBe(true);
    expect(window.floor).toBe(Math.min(...newest));
    expect(await holdsPart()).toBe(true);
    expect(await readCursor()).toBe(await server.head());

    // A like on a post the device does not hold arrives all the same (no change is skipped).
    const outside = [...all].sort((a, b) => a - b)[5]!;
    await (await server.member('fan@example.com')).like(outside, 3);
    await device.engine.sync();
    expect((await db.posts.get(outside))?.likes).toBe(3);

    // Download the whole forum: every post, and no budget any more.
    await downloadWholeForum();
    await device.engine.sync();
    expect((await approvedIds()).length).toBe(all.length);
    expect(await holdsPart()).toBe(false);
    expect(await keepWithinBudget('member@example.com', 10)).toBe(0);
  }, 60_000);

  it('after its first page, a window waits while the screen comes up: the rest is asked for once it is painted', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(WINDOW_FIRST_PAGE + 30);
    const asked: string[] = [];
    let painted!: () => void;
    const yields: string[] = [];
    const device = await connectedDevice(server, 'member@example.com', {
      yieldToScreen: () => {
        yields.push(`after ${asked.length}`);
        return new Promise<void>((resolve) => (painted = resolve));
      },
    });
    server.fault = ({ url }) => {
      if (url.pathname === '/api/posts') asked.push(url.search);
      return undefined;
    };
    const sync = device.engine.sync();
    await expect.poll(() => yields).toEqual(['after 1']);
    // The first page is stored (the forum can paint it); nothing more is asked while the screen comes up.
    await expect.poll(() => approvedIds().then((ids) => ids.length)).toBe(WINDOW_FIRST_PAGE);
    expect(asked).toEqual([`?part=newest&limit=${WINDOW_FIRST_PAGE}`]);
    painted();
    await sync;
    server.fault = undefined;
    expect(yields).toEqual(['after 1']); // once per window
    expect((await approvedIds()).length).toBe(WINDOW_FIRST_PAGE + 30);
    expect(getSyncStatus().state).toBe('synced');
  });

  it('a first sync that fails midway resumes its window without a full pull', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(WINDOW_POSTS + 300);
    const device = await connectedDevice(server);
    let pages = 0;
    server.fault = ({ url }) => (url.pathname === '/api/posts' && ++pages === 3 ? 'unreachable' : undefined);
    await device.engine.sync();
    expect(getSyncStatus().state).toBe('offline');
    const head = (await readWindow()).head;
    expect(head).toBeGreaterThan(0);
    // Meanwhile a post in the window changes: the resumed sync brings its newest version.
    const newest = Math.max(...(await approvedIds()));
    await (await server.member('fan@example.com')).like(newest, 2);
    server.fault = undefined;
    await device.engine.retry();
    expect(getSyncStatus().state).toBe('synced');
    expect((await approvedIds()).length).toBe(WINDOW_POSTS);
    expect((await db.posts.get(newest))?.likes).toBe(2);
    expect(await readCursor()).toBe(await server.head());
  });

  it('past its budget the oldest posts leave, never the member’s own, saved or queued posts', async () => {
    const server = await startServer();
    const mine = await server.addPost({ authorEmail: 'member@example.com', title: 'Mine' });
    const saved = await server.addPost({ title: 'Saved' });
    const liked = await server.addPost({ title: 'Liked offline' });
    await (await server.member('member@example.com')).push({ id: crypto.randomUUID(), type: 'save', postId: saved.id, saved: true });
    await server.insertApprovedPosts(40);
    const device = await connectedDevice(server);
    await device.engine.sync();
    expect((await approvedIds()).length).toBe(43);
    expect(await holdsPart()).toBe(false); // a small forum: the device holds all of it
    device.online.value = false;
    await likePost(liked.id); // queued
    const removed = await keepWithinBudget('member@example.com', 10);
    const held = await approvedIds();
    expect(removed).toBe(30);
    expect(held).toEqual(expect.arrayContaining([mine.id, saved.id, liked.id]));
    expect(held.length).toBe(13);
    // The newest ten stay; the floor rises past what left, and the device now holds part.
    const floor = (await readWindow()).floor;
    expect(held.filter((id) => id >= floor).length).toBe(10);
    expect(await holdsPart()).toBe(true);
    expect((await db.meta.get(META_KEYS.holdsPart))?.value).toBe('window');
    // Their replies went with them.
    expect(await db.replies.filter((reply) => !held.includes(reply.postId)).count()).toBe(0);
  });

  it('older pages come from the server below the floor, which moves down; one post comes when opened', async () => {
    resetOlderPages();
    const server = await startServer();
    const pending = await server.addPost({ status: 'pending', title: 'Someone’s pending post' });
    await server.insertApprovedPosts(WINDOW_POSTS + OLDER_PAGE + 10);
    const all = (await server.posts())
      .filter((post) => post.status === 'approved')
      .map((post) => post.id)
      .sort((a, b) => b - a);
    const device = await connectedDevice(server);
    await device.engine.sync();
    const floor = (await readWindow()).floor;
    expect(floor).toBe(all[WINDOW_POSTS - 1]);
    expect(await loadOlderPosts('member@example.com', 'All', device.api)).toBe(true);
    expect((await approvedIds()).length).toBe(WINDOW_POSTS + OLDER_PAGE);
    expect((await readWindow()).floor).toBe(all[WINDOW_POSTS + OLDER_PAGE - 1]);
    expect(await loadOlderPosts('member@example.com', 'All', device.api)).toBe(false);
    expect((await approvedIds()).length).toBe(all.length);
    // Asked again, nothing more is asked of the server.
    const asked = server.requests.length;
    expect(await loadOlderPosts('member@example.com', 'All', device.api)).toBe(false);
    expect(server.requests.length).toBe(asked);
    // One post opened from a link: kept with its replies; one the member may not see is not found.
    await db.posts.delete(all.at(-1)!);
    await fetchPost(all.at(-1)!, 'member@example.com', device.api);
    expect(await db.posts.get(all.at(-1)!)).toBeDefined();
    const refused = await fetchPost(pending.id, 'member@example.com', device.api).catch((error: unknown) => error);
    expect(isDataError(refused, 'not_found')).toBe(true);
    expect(await db.posts.get(pending.id)).toBeUndefined();
  }, 60_000);
});
