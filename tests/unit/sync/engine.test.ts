import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/core/schema';
import { approvePost, createPost, likePost } from '../../../src/db/posts/posts';
import { readCursor } from '../../../src/db/sync/sync-meta';
import { getSyncStatus, onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { FIRST_PULL_PAGE_SIZE, PULL_PAGE_SIZE } from '../../../src/sync/engine';
import { signInAs } from '../factories';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { connectedDevice } from './harness';
import { FakeServer } from './fake-server';

const likesOf = async (id: number) => (await db.posts.get(id))!.likes;

describe('the sync engine', () => {
  it('pulls what the member may see and shows Synced', async () => {
    resetSyncStatus();
    const server = new FakeServer();
    const approved = server.addPost({ likes: 7 });
    server.addPost({ status: 'pending' });
    const mine = server.addPost({ status: 'pending', authorEmail: 'member@example.com' });
    const device = await connectedDevice('member@example.com', server);
    await device.engine.sync();
    expect((await db.posts.toArray()).map((post) => post.id).sort()).toEqual([approved.id, mine.id]);
    expect(await likesOf(approved.id)).toBe(7);
    expect(await readCursor()).toBe(server.seq);
    expect(getSyncStatus()).toMatchObject({ state: 'synced', waiting: 0 });
    expect(getSyncStatus().lastSyncAt).toBeGreaterThan(0);
  });

  for (const carry of [true, false]) {
    it(`counts a like once: server likes plus unacknowledged local likes (results ${carry ? 'carry' : 'omit'} the post)`, async () => {
      const server = new FakeServer();
      server.resultsCarryPost = carry;
      const post = server.addPost({ likes: 10 });
      const device = await connectedDevice('member@example.com', server);
      await device.engine.sync();
      await likePost(post.id);
      await likePost(post.id);
      expect(await likesOf(post.id)).toBe(12);
      // Someone else likes it on the server meanwhile.
      server.posts.set(post.id, { ...server.posts.get(post.id)!, likes: 15, seq: ++server.seq });
      await device.engine.sync();
      expect(server.posts.get(post.id)!.likes).toBe(17);
      expect(await likesOf(post.id)).toBe(17);
      expect(await db.outbox.count()).toBe(0);
      // Syncing again sends nothing and changes nothing.
      const requests = server.requests.length;
      await device.engine.sync();
      expect(server.requests.slice(requests)).toEqual(['GET /api/changes']);
      expect(await likesOf(post.id)).toBe(17);
    });
  }

  it('a pull that lands between the server applying a like and its answer never counts it twice', async () => {
    const server = new FakeServer();
    server.resultsCarryPost = false;
    const post = server.addPost({ likes: 3 });
    const device = await connectedDevice('member@example.com', server);
    await device.engine.sync();
    await likePost(post.id);
    const [row] = await db.outbox.toArray();
    // The server applied it, but the device has not had the answer yet: a pull sees 4 and keeps the op.
    server.push([row!.op], server.accounts.get('member@example.com')!);
    const { applyPullPage } = await import('../../../src/db/sync/apply-pull');
    await applyPullPage(server.changes(server.accounts.get('member@example.com')!, await readCursor(), 100), 'member@example.com');
    expect(await likesOf(post.id)).toBe(5); // transient: 4 from the server + the still unanswered like
    await device.engine.sync(); // resend: the server answers duplicate, the device settles at the truth
    expect(server.posts.get(post.id)!.likes).toBe(4);
    expect(await likesOf(post.id)).toBe(4);
    expect(await db.outbox.count()).toBe(0);
  });

  it('offline: writes wait, the status says how many, and all arrive once when back online', async () => {
    resetSyncStatus();
    const server = new FakeServer();
    const post = server.addPost();
    const device = await connectedDevice('member@example.com', server);
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
    expect(server.posts.get(post.id)!.likes).toBe(2);
    const onServer = [...server.posts.values()].filter((p) => p.title === 'Written offline');
    expect(onServer).toHaveLength(1);
    // The temporary row was re-keyed to the server's id.
    expect(await db.posts.get(created.id)).toBeUndefined();
    expect(await db.posts.get(onServer[0]!.id)).toMatchObject({ title: 'Written offline', status: 'pending' });
    expect(await db.posts.count()).toBe(2);
  });

  it('an operation about a post created offline is sent with the server id', async () => {
    const server = new FakeServer();
    const device = await connectedDevice(DEFAULT_ADMIN_EMAIL, server, 'admin-pass');
    server.down = true;
    const created = await createPost({ title: 'Admin note', content: 'Approved at once', category: 'Trends' });
    await approvePost(created.id);
    server.down = false;
    await device.engine.sync();
    const [onServer] = [...server.posts.values()];
    expect(onServer).toMatchObject({ title: 'Admin note', status: 'approved' });
    expect(await db.posts.get(onServer!.id)).toMatchObject({ status: 'approved' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('a refused review is undone and explained: This post was already reviewed', async () => {
    const server = new FakeServer();
    const post = server.addPost({ status: 'pending' });
    const device = await connectedDevice(DEFAULT_ADMIN_EMAIL, server, 'admin-pass');
    await device.engine.sync();
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    await approvePost(post.id);
    expect((await db.posts.get(post.id))!.status).toBe('approved');
    // Another admin rejected it first.
    server.posts.set(post.id, { ...server.posts.get(post.id)!, status: 'rejected', seq: ++server.seq });
    await device.engine.sync();
    stop();
    expect(notices).toEqual([{ title: 'Already reviewed', description: 'This post was already reviewed' }]);
    expect((await db.posts.get(post.id))!.status).toBe('rejected');
    expect(await db.outbox.count()).toBe(0);
  });

  it('a refused create removes the temporary post and says why', async () => {
    const server = new FakeServer();
    const device = await connectedDevice('member@example.com', server);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    const created = await createPost({ title: 'Fine', content: 'Fine', category: 'Trends' });
    await db.outbox.toCollection().modify((row) => {
      if (row.op.type === 'create') row.op.post = { title: ' ', content: 'x', category: 'Trends' };
    });
    await device.engine.sync();
    stop();
    expect(await db.posts.get(created.id)).toBeUndefined();
    expect(notices).toEqual([{ title: 'Change not saved', description: 'Please fill in all fields' }]);
  });

  it('pulls in pages (a small first one), each with its cursor, and resumes after a failure mid-way', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 2_500; i += 1) server.addPost();
    const device = await connectedDevice('member@example.com', server);
    let pulls = 0;
    const limits: number[] = [];
    const realChanges = server.changes.bind(server);
    server.changes = (account, after, limit) => {
      pulls += 1;
      limits.push(limit);
      if (pulls === 3) throw new TypeError('Failed to fetch'); // the network drops on page 3
      return realChanges(account, after, limit);
    };
    await device.engine.sync();
    expect(limits).toEqual([FIRST_PULL_PAGE_SIZE, PULL_PAGE_SIZE, PULL_PAGE_SIZE]);
    expect(await db.posts.count()).toBe(FIRST_PULL_PAGE_SIZE + PULL_PAGE_SIZE);
    expect(await readCursor()).toBe([...server.posts.values()][FIRST_PULL_PAGE_SIZE + PULL_PAGE_SIZE - 1]!.seq);
    expect(getSyncStatus().state).toBe('offline');
    await device.engine.retry();
    expect(await db.posts.count()).toBe(2_500);
    expect(await readCursor()).toBe(server.seq);
  });

  it('another member signing in on the device removes the previous member’s private posts', async () => {
    const server = new FakeServer();
    server.addPost();
    const device = await connectedDevice('first@example.com', server);
    const mine = await createPost({ title: 'Private draft', content: 'Pending', category: 'Trends' });
    await device.engine.sync();
    expect(await db.posts.count()).toBe(2);
    expect(await db.posts.get(mine.id)).toBeUndefined(); // re-keyed
    const second = await connectedDevice('second@example.com', server);
    signInAs('second@example.com');
    await second.engine.sync();
    const titles = (await db.posts.toArray()).map((post) => post.title);
    expect(titles).not.toContain('Private draft');
    expect(titles).toHaveLength(1);
  });

  it('a session the server ended shows Sync error with its sentence and no retry loop', async () => {
    resetSyncStatus();
    const server = new FakeServer();
    const device = await connectedDevice('member@example.com', server);
    server.accounts.delete('member@example.com');
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: 'Please sign in again.' });
    expect(device.timers).toHaveLength(0);
  });
});

describe('the sync engine, offline member switch', () => {
  it('a member who signs in while offline never sees the previous member’s private posts', async () => {
    const server = new FakeServer();
    const first = await connectedDevice('first@example.com', server);
    server.addPost({ title: 'First’s pending', status: 'pending', authorEmail: 'first@example.com' });
    await first.engine.sync();
    expect(await db.posts.count()).toBe(1);
    const second = await connectedDevice('second@example.com', server);
    second.online.value = false;
    await second.engine.sync();
    expect(getSyncStatus().state).toBe('offline');
    expect(await db.posts.count()).toBe(0);
  });
});

describe('the sync engine, pushing safely', () => {
  it('never sends one member’s changes under another member’s server session', async () => {
    resetSyncStatus();
    const server = new FakeServer();
    const post = server.addPost();
    const device = await connectedDevice('owner@example.com', server);
    await device.engine.sync();
    signInAs('intruder@example.com'); // signed in on the device only (as an offline sign-in would)
    device.engine.sessionChanged();
    await likePost(post.id);
    await device.engine.sync();
    expect(server.posts.get(post.id)!.likes).toBe(0);
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: 'Please sign in again.', waiting: 1 });
  });

  it('splits a queue too large for one request, and refuses alone an operation the server cannot take', async () => {
    const server = new FakeServer();
    const device = await connectedDevice('writer@example.com', server);
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
    expect([...server.posts.values()].filter((post) => post.title.startsWith('Long '))).toHaveLength(59);
    expect(notices).toEqual([{ title: 'Change not saved', description: 'This request is too large.' }]);
    expect(await db.outbox.count()).toBe(0);
    expect(getSyncStatus().state).toBe('synced');
  });
});
