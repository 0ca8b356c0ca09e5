import { describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { DataError } from '../../../src/db/storage/errors';
import { loadDraft } from '../../../src/db/posts/drafts';
import { readStoredSession } from '../../../src/db/members/session';
import { ERRORS } from '../../../src/shared/errors';
import { validateNewPost } from '../../../src/shared/validation';
import { approvePost, createPost } from '../../../src/db/posts/posts';
import { likePost } from '../../../src/db/likes/likes';
import { applyPullPage } from '../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../src/db/sync/apply-results';
import { onLocalChange } from '../../../src/db/storage/changes';
import { readCursor } from '../../../src/db/ops/sync-meta';
import { META_KEYS } from '../../../src/db/contracts';
import { getSyncStatus, onSyncNotice, onSyncStatus, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { FIRST_PULL_PAGE_SIZE, POKE_GAP_MS, PULL_PAGE_SIZE, SyncEngine } from '../../../src/sync/engine';
import type { SyncApi } from '../../../src/sync/api';
import { signInAs } from '../factories';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

const likesOf = async (id: number) => (await db.posts.get(id))!.likes;
const byId = (a: number, b: number) => a - b;

describe('the sync engine', () => {
  it('pulls what the member may see and shows Synced', async () => {
    resetSyncStatus();
    const server = await startServer();
    const approved = await server.addPost({ likes: 7 });
    await server.addPost({ status: 'pending' });
    await server.addPost({ status: 'rejected' });
    const mine = await server.addPost({ status: 'pending', authorEmail: 'member@example.com' });
    const device = await connectedDevice(server);
    await device.engine.sync();
    expect((await db.posts.toArray()).map((post) => post.id).sort(byId)).toEqual([approved.id, mine.id].sort(byId));
    expect(await likesOf(approved.id)).toBe(7);
    expect(await readCursor()).toBe(await server.head());
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    expect(getSyncStatus().lastSyncAt).toBeGreaterThan(0);
  });

  it('counts a like once: server likes plus unacknowledged local likes', async () => {
    const server = await startServer();
    const post = await server.addPost({ likes: 10 });
    const device = await connectedDevice(server);
    await device.engine.sync();
    await likePost(post.id);
    await likePost(post.id);
    expect(await likesOf(post.id)).toBe(12);
    // Someone else likes it on the server meanwhile.
    await (await server.member('other@example.com')).like(post.id, 5);
    await device.engine.sync();
    expect((await server.post(post.id))!.likes).toBe(17);
    expect(await likesOf(post.id)).toBe(17);
    expect(await db.outbox.count()).toBe(0);
    // Syncing again sends nothing and changes nothing.
    const requests = server.requests.length;
    await device.engine.sync();
    expect(server.requests.slice(requests)).toEqual(['GET /api/changes']);
    expect(await likesOf(post.id)).toBe(17);
  });

  it('a pull that lands between the server applying a like and its answer never counts it twice', async () => {
    const server = await startServer();
    const post = await server.addPost({ likes: 3 });
    const device = await connectedDevice(server);
    await device.engine.sync();
    await likePost(post.id);
    // The server applies the like, but its answer is lost on the way back.
    server.fault = ({ method, url }) => (method === 'POST' && url.pathname === '/api/ops' ? 'answer-lost' : undefined);
    await device.engine.sync();
    server.fault = undefined;
    expect((await server.post(post.id))!.likes).toBe(4);
    expect(await db.outbox.count()).toBe(1);
    // A pull (another tab's, the live stream's) sees 4 and keeps the unanswered op.
    await applyPullPage(await device.api.pull(await readCursor(), 100), 'member@example.com');
    expect(await likesOf(post.id)).toBe(5); // transient: 4 from the server + the still unanswered like
    await device.engine.sync(); // resend: the server answers duplicate, the device settles at the truth
    expect((await server.post(post.id))!.likes).toBe(4);
    expect(await likesOf(post.id)).toBe(4);
    expect(await db.outbox.count()).toBe(0);
  });

  it('the live stream’s pokes pull at most once per POKE_GAP_MS on a tab: a busy forum does not spend the page limit', async () => {
    let now = 1_000_000;
    const timers: { callback: () => void; ms: number }[] = [];
    const engine = new SyncEngine({
      api: {} as SyncApi,
      session: () => null,
      isOnline: () => true,
      now: () => now,
      setTimer: (callback, ms) => timers.push({ callback, ms }),
      clearTimer: () => undefined,
    });
    // A poke's cycle (the private run: sync() would also ask for a pull whatever the cursor says).
    const syncs = vi.spyOn(engine as unknown as { run: () => Promise<void> }, 'run').mockResolvedValue();
    // Ten changes announced in one moment: one pull now, and one when the gap ends.
    for (let cursor = 1; cursor <= 10; cursor += 1) engine.notifyServerCursor(cursor);
    expect(syncs).toHaveBeenCalledTimes(1);
    expect(timers.map((timer) => timer.ms)).toEqual([POKE_GAP_MS]);
    now += POKE_GAP_MS;
    timers[0]!.callback();
    expect(syncs).toHaveBeenCalledTimes(2);
    // A poke after a quiet gap pulls at once.
    now += POKE_GAP_MS;
    engine.notifyServerCursor(11);
    expect(syncs).toHaveBeenCalledTimes(3);
    expect(timers).toHaveLength(1);
  });

  it('two tabs poked about one change pull it once: the second finds it stored by the first', async () => {
    const server = await startServer();
    const post = await server.addPost({ likes: 1 });
    // One device, two tabs: one IndexedDB, and the Web Lock that lets one tab's cycle run at a time.
    let queue = Promise.resolve();
    let turns = 0;
    const lock = <T>(work: () => Promise<T>): Promise<T> => {
      const turn = queue.then(work).finally(() => (turns += 1));
      queue = turn.then(
        () => undefined,
        () => undefined,
      );
      return turn;
    };
    const first = await connectedDevice(server, 'member@example.com', { lock });
    const second = await connectedDevice(server, 'member@example.com', { lock });
    await first.engine.sync();
    await second.engine.sync();
    await (await server.member('other@example.com')).like(post.id, 2);
    const head = await server.head();
    const before = server.requests.length;
    const pulls = () => server.requests.slice(before).filter((request) => request === 'GET /api/changes').length;
    first.engine.notifyServerCursor(head);
    second.engine.notifyServerCursor(head);
    // Each tab's cycle takes the lock once.
    await expect.poll(() => turns).toBe(4);
    expect(pulls()).toBe(1);
    expect(await likesOf(post.id)).toBe(3);
    // Asked by anything but a poke (focus, a retry, coming online), a tab pulls all the same.
    await second.engine.sync();
    expect(pulls()).toBe(2);
  });

  it('offline: writes wait, the status says how many, and all arrive once when back online', async () => {
    resetSyncStatus();
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    server.down = true;
    await likePost(post.id);
    await likePost(post.id);
    const created = await createPost({ title: 'Written offline', content: 'On the train', category: 'Trends' });
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'offline', waiting: 3 });
    expect(device.timers.at(-1)!.ms).toBe(1_000);
    await device.engine.sync();
    expect(device.timers.at(-1)!.ms).toBe(2_000); // backs off
    server.down = false;
    device.timers.at(-1)!.callback();
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    expect((await server.post(post.id))!.likes).toBe(2);
    const onServer = (await server.posts()).filter((p) => p.title === 'Written offline');
    expect(onServer).toHaveLength(1);
    // The temporary row was re-keyed to the server's id.
    expect(onServer[0]!.id).not.toBe(created.id);
    expect(await db.posts.get(created.id)).toBeUndefined();
    expect(await db.posts.get(onServer[0]!.id)).toMatchObject({ title: 'Written offline', status: 'pending' });
    expect(await db.posts.count()).toBe(2);
  });

  it('a write says Syncing… at once, never Synced before its waiting count is read; offline it says nothing until the cycle does', async () => {
    resetSyncStatus();
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    await likePost(post.id);
    const sent = device.engine.localChange();
    expect(getSyncStatus().state).toBe('syncing');
    await sent;
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    expect((await server.post(post.id))!.likes).toBe(1);
    device.online.value = false;
    await device.engine.sync();
    await likePost(post.id);
    const waiting = device.engine.localChange();
    expect(getSyncStatus().state).toBe('offline');
    await waiting;
    expect(getSyncStatus()).toMatchObject({ state: 'offline', waiting: 1 });
  });

  it('a write made while a cycle runs shows Syncing… until the cycle after it has sent it, never Synced in between', async () => {
    resetSyncStatus();
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server);
    await device.engine.sync();
    const pull = device.api.pull.bind(device.api);
    let wrote = false;
    device.api.pull = async (...args: Parameters<SyncApi['pull']>) => {
      const page = await pull(...args);
      if (!wrote) {
        wrote = true;
        await likePost(post.id);
        void device.engine.localChange();
      }
      return page;
    };
    const seen: string[] = [];
    const stop = onSyncStatus((status) => seen.push(status.state));
    await device.engine.sync();
    stop();
    expect(wrote).toBe(true);
    expect((await server.post(post.id))!.likes).toBe(1);
    // Synced once, at the very end: after the write, nothing said Synced before the like was sent.
    expect(seen.filter((state) => state === 'synced')).toHaveLength(1);
    expect(seen.at(-1)).toBe('synced');
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
  });

  it('an operation about a post created offline is sent with the server id', async () => {
    const server = await startServer();
    const device = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    server.down = true;
    const created = await createPost({ title: 'Admin note', content: 'Approved at once', category: 'Trends' });
    await approvePost(created.id);
    server.down = false;
    await device.engine.sync();
    const onServer = await server.posts();
    expect(onServer).toHaveLength(1);
    expect(onServer[0]).toMatchObject({ title: 'Admin note', status: 'approved' });
    expect(await db.posts.get(onServer[0]!.id)).toMatchObject({ status: 'approved' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('an Approve pressed as the post’s temporary id gives way to the server’s follows it (issue 59, item 2)', async () => {
    const server = await startServer();
    const device = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    const created = await createPost({ title: 'Fresh admin note', content: 'Approved the moment it lands', category: 'Trends' });
    const [sent] = await db.outbox.toArray();
    const answer = await device.api.push([sent!.op]);
    const [result] = answer.results;
    const serverId = result?.status === 'applied' ? result.postId! : 0;
    // The server's answer to the create is applied the instant the approval is written.
    const stop = onLocalChange((kind) => {
      if (kind !== 'op:approve') return;
      stop();
      void applyPushResults([sent!], answer.results, answer.cursor);
    });
    await expect(approvePost(created.id)).resolves.toMatchObject({ id: serverId, status: 'approved' });
    await device.engine.sync();
    expect(await server.post(serverId)).toMatchObject({ status: 'approved' });
  });

  it('an Approve pressed on a card still showing the temporary id reviews the post under the server’s id (issue 59, item 2)', async () => {
    const server = await startServer();
    const device = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    const created = await createPost({ title: 'Renumbered meanwhile', content: 'The queue had not caught up', category: 'Trends' });
    await device.engine.sync();
    const [onServer] = await server.posts();
    expect(onServer!.id).not.toBe(created.id);
    await expect(approvePost(created.id)).resolves.toMatchObject({ id: onServer!.id, status: 'approved' });
    await device.engine.sync();
    expect(await server.post(onServer!.id)).toMatchObject({ status: 'approved' });
  });

  it('a refused review is undone and explained: This post was already reviewed', async () => {
    const server = await startServer();
    const post = await server.addPost({ status: 'pending' });
    const device = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    await device.engine.sync();
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    await approvePost(post.id);
    expect((await db.posts.get(post.id))!.status).toBe('approved');
    // Another admin (the same account on another device) rejected it first.
    await (await server.admin()).reject(post.id);
    await device.engine.sync();
    stop();
    // The same words as the refusal a local-only device shows.
    const refused = new DataError('already_reviewed', { postId: post.id });
    expect(notices).toEqual([{ title: refused.title, description: refused.message }]);
    expect((await db.posts.get(post.id))!.status).toBe('rejected');
    expect(await db.outbox.count()).toBe(0);
  });

  it('a refused create removes the temporary post and says why', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    const created = await createPost({ title: 'Fine', content: 'Fine', category: 'Trends' });
    await db.outbox.toCollection().modify((row) => {
      if (row.op.type === 'create') row.op.post = { title: ' ', content: 'x', category: 'Trends' };
    });
    await device.engine.sync();
    stop();
    expect(await db.posts.get(created.id)).toBeUndefined();
    // The server's sentence is the form's own (the shared rules).
    expect(notices).toEqual([{ title: ERRORS.invalid.title, description: validateNewPost(' ', 'x')!.message }]);
    expect(await server.posts()).toEqual([]);
    // The text is not lost: it is the member's New Post draft now.
    expect(await loadDraft(readStoredSession()!.email)).toMatchObject({ title: ' ', content: 'x', category: 'Trends' });
  });

  it('pulls in pages (a small first one), each with its cursor, and resumes after a failure mid-way', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(2_500);
    const device = await connectedDevice(server);
    // A device that asked for the whole forum pulls it all (a new one takes a window: window.test.ts).
    await db.meta.put({ key: META_KEYS.windowWhole, value: true });
    const limits: number[] = [];
    server.fault = ({ url }) => {
      if (url.pathname !== '/api/changes') return undefined;
      limits.push(Number(url.searchParams.get('limit')));
      return limits.length === 3 ? 'unreachable' : undefined; // the network drops on page 3
    };
    await device.engine.sync();
    server.fault = undefined;
    expect(limits).toEqual([FIRST_PULL_PAGE_SIZE, PULL_PAGE_SIZE, PULL_PAGE_SIZE]);
    expect(await db.posts.count()).toBe(FIRST_PULL_PAGE_SIZE + PULL_PAGE_SIZE);
    expect(await readCursor()).toBe((await server.posts())[FIRST_PULL_PAGE_SIZE + PULL_PAGE_SIZE - 1]!.seq);
    expect(getSyncStatus().state).toBe('offline');
    await device.engine.retry();
    expect(await db.posts.count()).toBe(2_500);
    expect(await readCursor()).toBe(await server.head());
  });

  it('another member signing in on the device removes the previous member’s private posts', async () => {
    const server = await startServer();
    await server.addPost();
    const device = await connectedDevice(server, 'first@example.com');
    const mine = await createPost({ title: 'Private draft', content: 'Pending', category: 'Trends' });
    await device.engine.sync();
    expect(await db.posts.count()).toBe(2);
    const [onServer] = (await server.posts()).filter((post) => post.title === 'Private draft');
    expect(onServer!.id).not.toBe(mine.id);
    expect(await db.posts.get(mine.id)).toBeUndefined(); // re-keyed
    const second = await connectedDevice(server, 'second@example.com');
    signInAs('second@example.com');
    await second.engine.sync();
    const titles = (await db.posts.toArray()).map((post) => post.title);
    expect(titles).not.toContain('Private draft');
    expect(titles).toHaveLength(1);
  });

  it('a session the server ended shows Sync error with its sentence and no retry loop', async () => {
    resetSyncStatus();
    const server = await startServer();
    const device = await connectedDevice(server);
    await server.endSessions('member@example.com');
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: 'Please sign in again.' });
    expect(device.timers).toHaveLength(0);
  });
});

describe('the sync engine, offline member switch', () => {
  it('a member who signs in while offline never sees the previous member’s private posts', async () => {
    const server = await startServer();
    const first = await connectedDevice(server, 'first@example.com');
    await server.addPost({ title: 'First’s pending', status: 'pending', authorEmail: 'first@example.com' });
    await first.engine.sync();
    expect(await db.posts.count()).toBe(1);
    const second = await connectedDevice(server, 'second@example.com');
    second.online.value = false;
    await second.engine.sync();
    expect(getSyncStatus().state).toBe('offline');
    expect(await db.posts.count()).toBe(0);
  });
});

describe('the sync engine, pushing safely', () => {
  it('never sends one member’s changes under another member’s server session', async () => {
    resetSyncStatus();
    const server = await startServer();
    const post = await server.addPost();
    const device = await connectedDevice(server, 'owner@example.com');
    await device.engine.sync();
    signInAs('intruder@example.com'); // signed in on the device only (as an offline sign-in would)
    device.engine.sessionChanged();
    await likePost(post.id);
    await device.engine.sync();
    expect((await server.post(post.id))!.likes).toBe(0);
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: 'Please sign in again.', waiting: 1 });
  });

  it('splits a queue too large for one request, and refuses alone an operation the server cannot take', async () => {
    const server = await startServer();
    const device = await connectedDevice(server, 'writer@example.com');
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    const long = 'x'.repeat(20_000);
    for (let i = 0; i < 60; i += 1) await createPost({ title: `Long ${i}`, content: long, category: 'Trends' });
    // An operation bigger than the body limit, as a hostile import could queue.
    const first = (await db.outbox.orderBy('seq').first())!;
    await db.outbox.update(first.seq!, {
      op: { ...first.op, post: { title: 'Huge', content: 'y'.repeat(1_100_000), category: 'Trends' } } as never,
    });
    await device.engine.sync();
    stop();
    expect((await server.posts()).filter((post) => post.title.startsWith('Long '))).toHaveLength(59);
    expect(server.requests.filter((request) => request === 'POST /api/ops').length).toBeGreaterThan(2); // the huge one alone, the rest split
    // The server's own 413 sentence, under the device's title for a change it could not save.
    expect(notices).toEqual([{ title: ERRORS.too_large.title, description: ERRORS.too_large.message }]);
    expect(await db.outbox.count()).toBe(0);
    expect(getSyncStatus().state).toBe('synced');
  });
});
