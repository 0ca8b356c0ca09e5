// Moderation and notifications against the real server (test-server.ts): two admins' overlapping
// bulk reviews (each post reviewed once; the device that lost is told once which posts), a
// rejection's reason and notification reaching the author, notifications read on one device read
// on the other, and flags seen per member on a shared device.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { UNDO_GRACE_MS } from '../../../src/db/ops/undo';
import { reviewPosts } from '../../../src/db/moderation/review';
import { countFlaggedItems, flagItem, getMyFlag, hideFlagged, listFlaggedItems } from '../../../src/db/flags/flags';
import { countUnread, listNotifications, markAllRead } from '../../../src/db/notifications/notifications';
import { countPendingPosts, listPostsByAuthor } from '../../../src/db/posts/posts';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { startServer } from './test-server';
import { mockNow } from '../timers';

const MEMBER = 'member@example.com';
const FLAGGER = 'flagger@example.com';

let clock = { now: 0 };
beforeEach(() => {
  resetSyncStatus();
  clock = mockNow();
});
afterEach(() => vi.restoreAllMocks());

describe('moderation through the real server', () => {
  it('two admins’ overlapping bulk reviews: each post is reviewed once, and the device that lost is told once which', async () => {
    const server = await startServer();
    const posts = [];
    for (const title of ['A', 'B', 'C', 'D']) posts.push(await server.addPost({ status: 'pending', authorEmail: MEMBER, title }));
    const { engine } = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    await engine.sync();
    expect(await countPendingPosts()).toBe(4);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));

    const result = await reviewPosts(
      posts.slice(0, 3).map((post) => post.id),
      'approved',
    );
    expect(await countPendingPosts()).toBe(1);
    // The other admin (another tablet) reviews B, C and D first.
    const other = await server.admin();
    await other.reject(posts[1]!.id);
    await other.reject(posts[2]!.id);
    await other.approve(posts[3]!.id);
    await engine.sync(); // the reviews are still held: nothing is sent yet
    expect((await server.post(posts[0]!.id))!.status).toBe('pending');

    clock.now = result.undo!.until + UNDO_GRACE_MS;
    await engine.sync();
    stop();
    expect((await server.posts()).map((post) => [post.title, post.status]).sort()).toEqual([
      ['A', 'approved'],
      ['B', 'rejected'],
      ['C', 'rejected'],
      ['D', 'approved'],
    ]);
    expect(notices).toEqual([
      { title: 'Already reviewed', description: '2 of the posts you reviewed were already reviewed by another admin: “B”, “C”.' },
    ]);
    expect((await db.posts.bulkGet(posts.map((post) => post.id))).map((row) => row!.status)).toEqual([
      'approved',
      'rejected',
      'rejected',
      'approved',
    ]);
    expect(await countPendingPosts()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a rejection’s reason and notification reach the author; read on one device, read on the other', async () => {
    const server = await startServer();
    const first = await server.addPost({ status: 'pending', authorEmail: MEMBER, title: 'Panel quality' });
    const admin = await server.admin();
    await admin.push({ id: randomUUID(), type: 'reject', postId: first.id, reason: 'Needs sources' });
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    expect((await listPostsByAuthor(MEMBER))[0]).toMatchObject({ id: first.id, status: 'rejected', reason: 'Needs sources' });
    expect(await listNotifications()).toEqual([
      expect.objectContaining({ kind: 'rejected', postId: first.id, postTitle: 'Panel quality', reason: 'Needs sources', readAt: null }),
    ]);
    expect(await countUnread()).toBe(1);

    // Read here: the member's phone (another browser) pulls it read.
    const phone = await server.member(MEMBER);
    expect(await markAllRead()).toBe(1);
    await engine.sync();
    const pulled = await phone.api.pull(0, 1000);
    expect(pulled.notifications.map((n) => [n.id, n.readAt !== null])).toEqual([[(await listNotifications())[0]!.id, true]]);

    // Read on the phone: read here after the next pull.
    const second = await server.addPost({ status: 'pending', authorEmail: MEMBER, title: 'Sampling' });
    await admin.approve(second.id);
    await engine.sync();
    expect(await countUnread()).toBe(1);
    const unread = (await phone.api.pull(0, 1000)).notifications.filter((n) => n.readAt === null).map((n) => n.id);
    expect(unread).toHaveLength(1);
    expect(await phone.push({ id: randomUUID(), type: 'readNotifications', ids: unread })).toMatchObject([{ status: 'applied' }]);
    await engine.sync();
    expect(await countUnread()).toBe(0);
  });

  it('flags are per member on a shared device: a member sees their own, an admin all, and the next member none of theirs', async () => {
    const server = await startServer();
    const post = await server.addPost({ authorEmail: MEMBER, title: 'Hot take' });
    const target = { postId: post.id, replyId: null };

    const flagger = await connectedDevice(server, FLAGGER);
    await flagger.engine.sync();
    const flag = await flagItem(target, 'inappropriate', 'Personal attacks');
    await flagger.engine.sync();
    expect(await db.outbox.count()).toBe(0);
    expect(await getMyFlag(target)).toMatchObject({ id: flag.id, state: 'open' });
    flagger.engine.stop();

    // The admin signs in on the same device: every flag, with the flagger's name.
    const admin = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    await admin.engine.sync();
    expect(await countFlaggedItems()).toBe(1);
    expect((await listFlaggedItems())[0]).toMatchObject({
      target,
      flags: [{ id: flag.id, flaggerEmail: FLAGGER, text: 'Personal attacks' }],
    });
    await hideFlagged(target, 'Personal attacks');
    await admin.engine.sync();
    expect(await server.post(post.id)).toMatchObject({ status: 'rejected', reason: 'Personal attacks' });
    expect(await countFlaggedItems()).toBe(0);
    admin.engine.stop();

    // The author signs in next: none of the admin's view of flags stays, and the hide is told.
    const author = await connectedDevice(server, MEMBER);
    await author.engine.sync();
    expect(await db.flags.count()).toBe(0);
    expect(await getMyFlag(target)).toBeUndefined();
    expect((await listNotifications()).map((n) => [n.kind, n.reason]).sort()).toEqual([
      ['approved', null],
      ['postHidden', 'Personal attacks'],
    ]);
    author.engine.stop();
  });
});
