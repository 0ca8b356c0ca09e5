import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { createPost, approvePost } from '../../../../src/db/posts/posts';
import { likePost } from '../../../../src/db/likes/likes';
import { db, SCHEMA_V1, type PostRow } from '../../../../src/db/storage/schema';
import { DATABASE_NAME } from '../../../../src/db/contracts';
import { isDatabaseOutdated, onDatabaseOutdated, resetDatabaseOutdated } from '../../../../src/db/storage/outdated';
import { makePost, signInAsAdmin, storePosts } from '../../factories';

/** Writes a database exactly as version 1 of the app left it. */
async function writeVersion1(posts: PostRow[]): Promise<void> {
  db.close();
  const v1 = new Dexie(DATABASE_NAME);
  v1.version(1).stores(SCHEMA_V1);
  await v1.table('posts').bulkAdd(posts);
  await v1.table('accounts').put({ email: 'kept@example.com', name: 'Kept', createdAt: 1 });
  expect(v1.verno).toBe(1);
  v1.close();
}

describe('schema upgrades', () => {
  it('migrates a version 1 database with 10,000 posts to version 2, losing none', async () => {
    const posts = Array.from({ length: 10_000 }, (_, i) =>
      makePost({
        id: 1_600_000_000_000 + i * 7,
        likes: i % 13,
        status: (['approved', 'pending', 'rejected'] as const)[i % 3],
        category: i % 2 ? 'Trends' : 'Qualitative',
      }),
    );
    await writeVersion1(posts);
    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.posts.count()).toBe(10_000);
    const rows = await db.posts.orderBy('id').toArray();
    rows.forEach((row, i) => {
      const { rev, ...post } = row;
      expect(post).toEqual(posts[i]);
      expect(rev).toBe(i + 1);
    });
    expect(await db.posts.where('rev').above(9_990).count()).toBe(10);
    expect(await db.accounts.get('kept@example.com')).toMatchObject({ name: 'Kept' });
    expect(await db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey]).count()).toBe(3_334);
  });

  it('numbers every post-adding or status-changing write, and not likes', async () => {
    signInAsAdmin();
    const [stored] = await storePosts(makePost({ id: 5, status: 'approved' }));
    const created = await createPost({ title: 'Numbered', content: 'c' });
    const first = (await db.posts.get(created.id))!.rev!;
    await likePost(stored!.id);
    expect(await db.posts.orderBy('rev').lastKey()).toBe(first);
    await approvePost(created.id);
    expect((await db.posts.get(created.id))!.rev).toBe(first + 1);
  });

  it('a tab on the old version closes its connection and stays closed when a newer one upgrades', async () => {
    await db.open();
    let told = 0;
    const stop = onDatabaseOutdated(() => {
      told += 1;
    });
    const newer = new Dexie(DATABASE_NAME);
    newer.version(db.verno + 1).stores({ ...SCHEMA_V1, posts: 'id, [status+id], [status+category+id], [authorEmail+id], rev, title' });
    await newer.open(); // never blocked: the old connection closed at once
    expect(told).toBe(1);
    expect(isDatabaseOutdated()).toBe(true);
    await expect(db.posts.count()).rejects.toMatchObject({ name: 'DatabaseClosedError' });
    stop();
    newer.close();
    resetDatabaseOutdated();
    await Dexie.delete(DATABASE_NAME);
  });
});
