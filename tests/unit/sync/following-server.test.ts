// Following against the real server (test-server.ts): levels and read positions made here reach the
// member's other device and theirs reach this one; "N new" follows another member's replies and a read
// on the other device; a read made offline is kept and sent once, and the later position wins.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { followLevelOf, setFollowLevel } from '../../../src/db/follows/follows';
import { markRead, readPositionOf, unreadCounts } from '../../../src/db/follows/reads';
import { resetSyncStatus } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

const MEMBER = 'member@example.com';
const OTHER = 'other@example.com';
beforeEach(() => resetSyncStatus());
afterEach(() => vi.restoreAllMocks());

describe('following through the real server', () => {
  it('levels and read positions reach the other device; "N new" follows replies and reads there', async () => {
    const server = await startServer();
    const post = await server.addPost({ authorEmail: 'author@example.com', title: 'A thread' });
    const { engine, online } = await connectedDevice(server, MEMBER);
    await engine.sync();
    await setFollowLevel('post', String(post.id), 'watching');
    await setFollowLevel('category', post.category, 'muted');
    await markRead(post.id, 0);
    await engine.sync();
    expect(await db.outbox.count()).toBe(0);
    const phone = await server.member(MEMBER);
    const pulled = await phone.api.pull(0, 1000);
    expect(pulled.follows.map((row) => `${row.kind} ${row.target} ${row.level}`).sort()).toEqual([
      `category ${post.category} muted`,
      `post ${post.id} watching`,
    ]);
    expect(pulled.reads).toMatchObject([{ postId: post.id, readTo: 0 }]);

    // Another member replies twice: two new here.
    const other = await server.member(OTHER);
    const replies = [randomUUID(), randomUUID()];
    for (const id of replies)
      expect(await other.push({ id, type: 'reply', postId: post.id, content: 'More.' })).toMatchObject([{ status: 'applied' }]);
    await engine.sync();
    expect(await unreadCounts(MEMBER)).toEqual(new Map([[post.id, 2]]));

    // The phone reads the first: one new here; it unmutes the category.
    const first = (await db.replies.get(replies[0]!))!;
    expect(
      await phone.push(
        { id: randomUUID(), type: 'readPost', postId: post.id, readTo: first.createdAt },
        { id: randomUUID(), type: 'follow', kind: 'category', target: post.category, level: 'normal' },
      ),
    ).toMatchObject([{ status: 'applied' }, { status: 'applied' }]);
    await engine.sync();
    expect(await unreadCounts(MEMBER)).toEqual(new Map([[post.id, 1]]));
    expect(await followLevelOf(MEMBER, 'category', post.category)).toBe('normal');

    // Offline here: reading to the end counts at once, and is sent once back online.
    online.value = false;
    const last = (await db.replies.get(replies[1]!))!;
    await markRead(post.id, last.createdAt);
    expect(await unreadCounts(MEMBER)).toEqual(new Map());
    online.value = true;
    await engine.sync();
    expect(await db.outbox.count()).toBe(0);
    expect((await phone.api.pull(0, 1000)).reads).toMatchObject([{ postId: post.id, readTo: last.createdAt }]);
    // An older position from the phone changes nothing: the later wins.
    await phone.push({ id: randomUUID(), type: 'readPost', postId: post.id, readTo: first.createdAt });
    await engine.sync();
    expect(await readPositionOf(MEMBER, post.id)).toBe(last.createdAt);
  });
});
