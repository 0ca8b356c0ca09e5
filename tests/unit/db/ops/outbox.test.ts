import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { approvePost, createPost } from '../../../../src/db/posts/posts';
import { likePost } from '../../../../src/db/likes/likes';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { countWaiting, nextBatch } from '../../../../src/db/ops/outbox';
import { signInAsAdmin, signInAsMember, makePost, storePosts, synced } from '../../factories';

describe('the outbox', () => {
  it('queues nothing on a local-only device (today behaviour)', async () => {
    signInAsMember();
    const [post] = await storePosts(makePost());
    await likePost(post!.id);
    await createPost({ title: 'Local', content: 'Only here', category: 'Trends' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('queues each write in the same transaction as its local effect, in order', async () => {
    await markConnected();
    const admin = signInAsAdmin();
    const [post] = await storePosts(synced(makePost()));
    await likePost(post!.id);
    const created = await createPost({ title: 'Queued', content: 'Body', category: 'Trends' });
    await approvePost(created.id);
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((row) => row.op.type)).toEqual(['like', 'create', 'approve']);
    expect(rows.every((row) => row.email === admin.email)).toBe(true);
    expect(rows[1]!.op).toMatchObject({ type: 'create', post: { title: 'Queued', content: 'Body', category: 'Trends' } });
    expect(rows[2]).toMatchObject({ postId: created.id, role: 'admin' });
    expect((await db.posts.get(post!.id))!.likes).toBe(1);
    expect(await countWaiting(admin.email)).toBe(3);
    // The approve refers to a post the server has not created yet: it waits for the next batch.
    expect((await nextBatch(admin.email, 100)).map((row) => row.op.type)).toEqual(['like', 'create']);
  });

  it('an operation about a post the server never had (from before this device met it) stays here', async () => {
    await markConnected();
    signInAsMember();
    const [post] = await storePosts(makePost());
    await likePost(post!.id);
    expect((await db.posts.get(post!.id))!.likes).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a write that fails queues nothing (one transaction)', async () => {
    await markConnected();
    signInAsMember();
    const [pending] = await storePosts(makePost({ status: 'pending' }));
    await expect(likePost(pending!.id)).rejects.toThrow('Only approved posts can be liked.');
    expect(await db.outbox.count()).toBe(0);
  });

  it('uses a fresh version-4 operation id for every operation', async () => {
    await markConnected();
    signInAsMember();
    const [post] = await storePosts(synced(makePost()));
    for (let i = 0; i < 20; i += 1) await likePost(post!.id);
    const ids = (await db.outbox.toArray()).map((row) => row.op.id);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u);
  });
});
