import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db, SCHEMA_V1, SCHEMA_V2 } from '../../../../src/db/storage/schema';
import { DATABASE_NAME } from '../../../../src/db/contracts';
import { likePost } from '../../../../src/db/likes/likes';
import { createPost } from '../../../../src/db/posts/posts';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { makePost, signInAsMember } from '../../factories';

describe('schema version 3 (the outbox)', () => {
  it('opens a version 2 database, keeps every post and meta row, and adds an empty outbox', async () => {
    db.close();
    const v2 = new Dexie(DATABASE_NAME);
    v2.version(1).stores(SCHEMA_V1);
    v2.version(2).stores(SCHEMA_V2);
    const posts = Array.from({ length: 50 }, (_, i) => ({ ...makePost({ likes: i }), rev: i + 1 }));
    await v2.table('posts').bulkAdd(posts);
    await v2.table('meta').put({ key: 'seeded', value: 1 });
    expect(v2.verno).toBe(2);
    v2.close();

    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts);
    expect(await db.meta.get('seeded')).toEqual({ key: 'seeded', value: 1 });
    expect(await db.outbox.count()).toBe(0);
    // The upgraded database works for connected writes at once.
    await markConnected();
    signInAsMember();
    // (A like of a post from before the server stays here: the server never had it.)
    await likePost(posts[0]!.id);
    const created = await createPost({ title: 'After the upgrade', content: 'Queued.', category: 'Trends' });
    expect(await db.outbox.where('postId').equals(created.id).count()).toBe(1);
  });
});
