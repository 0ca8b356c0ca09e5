import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { applyExternalPostsChange, writeMirrorNow } from '../../../src/db/mirror/legacy-mirror';
import { seedSamplePosts } from '../../../src/db/posts/seed';
import { countUploadablePosts, decideUpload } from '../../../src/db/sync/local-posts';
import { POSTS_KEY } from '../../../src/db/contracts';
import { samplePosts } from '../../../src/shared/sample-posts';
import { makePost, storePosts } from '../factories';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

describe('a device that was local-only meets a server', () => {
  it('drops its own sample posts (the server has them) and offers the member’s own posts for upload once', async () => {
    const server = await startServer({ samples: true });
    await seedSamplePosts(false);
    await storePosts(makePost({ title: 'Mine, written offline', authorEmail: 'member@example.com', status: 'approved' }));
    await storePosts(makePost({ title: 'Someone else’s local post', authorEmail: 'other@example.com' }));
    const device = await connectedDevice(server);
    await device.engine.sync();
    const titles = (await db.posts.toArray()).map((post) => post.title).sort();
    const samples = samplePosts(0).map((post) => post.title);
    expect(titles).toEqual([...samples, 'Mine, written offline', 'Someone else’s local post'].sort());
    // Each sample once: the server's copy.
    const serverSamples = (await server.posts()).map((post) => post.id);
    expect((await db.posts.filter((post) => samples.includes(post.title)).primaryKeys()).sort()).toEqual(serverSamples.sort());
    expect(server.requests.filter((request) => request === 'POST /api/ops')).toHaveLength(0); // nothing sent unasked

    expect(await countUploadablePosts('member@example.com')).toBe(1);
    const session = { email: 'member@example.com', name: 'Member', role: 'user' as const };
    expect(await decideUpload(session, true)).toBe(1);
    expect(await countUploadablePosts('member@example.com')).toBe(0);
    await device.engine.sync();
    const uploaded = (await server.posts()).find((post) => post.title === 'Mine, written offline');
    expect(uploaded).toMatchObject({ status: 'pending', authorEmail: 'member@example.com' });
    expect(await db.posts.get(uploaded!.id)).toMatchObject({ status: 'pending' });
    expect((await server.posts()).filter((post) => post.title.includes('Someone'))).toHaveLength(0);
  });

  it('keeping the posts on the device asks no more and sends nothing', async () => {
    const server = await startServer();
    await storePosts(makePost({ authorEmail: 'member@example.com' }));
    const device = await connectedDevice(server);
    await decideUpload({ email: 'member@example.com', name: 'M', role: 'user' }, false);
    expect(await countUploadablePosts('member@example.com')).toBe(0);
    await device.engine.sync();
    expect(server.requests).not.toContain('POST /api/ops');
    expect(await server.posts()).toEqual([]);
  });
});

describe('the posts mirror on a connected device', () => {
  it('turns an older build’s new post and higher like count into operations that reach the server', async () => {
    const server = await startServer();
    const post = await server.addPost({ likes: 5 });
    const device = await connectedDevice(server);
    await device.engine.sync();
    await writeMirrorNow();
    const before = localStorage.getItem(POSTS_KEY);
    const copy = JSON.parse(before!) as Record<string, unknown>[];
    copy[0]!.likes = 8;
    copy.push({ ...makePost({ title: 'From the older build', authorEmail: 'member@example.com', status: 'pending' }) });
    const after = JSON.stringify(copy);
    localStorage.setItem(POSTS_KEY, after);
    await applyExternalPostsChange(before, after);
    expect(await db.outbox.count()).toBe(2);
    await device.engine.sync();
    expect((await server.post(post.id))!.likes).toBe(8);
    expect((await server.posts()).filter((p) => p.title === 'From the older build')).toHaveLength(1);
    expect((await db.posts.get(post.id))!.likes).toBe(8);
    expect(await db.outbox.count()).toBe(0);
  });

  it('another member signing in: the previous member’s pending post leaves IndexedDB and the mirror', async () => {
    const server = await startServer();
    await server.addPost({ title: 'Public' });
    const first = await connectedDevice(server, 'first@example.com');
    await server.addPost({ title: 'First’s pending post', status: 'pending', authorEmail: 'first@example.com' });
    await first.engine.sync();
    await writeMirrorNow();
    expect(localStorage.getItem(POSTS_KEY)).toContain('First’s pending post');
    const second = await connectedDevice(server, 'second@example.com');
    await second.engine.sync();
    await writeMirrorNow();
    expect((await db.posts.toArray()).map((post) => post.title)).toEqual(['Public']);
    expect(localStorage.getItem(POSTS_KEY)).not.toContain('First’s pending post');
  });
});
