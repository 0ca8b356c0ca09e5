import { describe, expect, it } from 'vitest';
import { samplePosts, seedSamplePosts } from '../../../src/db/posts/seed';
import { db } from '../../../src/db/core/schema';
import { makePost, storePosts } from '../factories';

describe('seedSamplePosts', () => {
  it('writes the three approved sample posts on the first start', async () => {
    expect(await seedSamplePosts(false, 1_800_000_000_000)).toBe(true);
    const posts = await db.posts.orderBy('id').reverse().toArray();
    expect(posts.map((post) => post.category)).toEqual(['AI & Technology', 'Qualitative', 'Quantitative']);
    expect(posts.every((post) => post.status === 'approved' && post.content.length > 200)).toBe(true);
  });

  it('never writes them again, even after every post is gone', async () => {
    await seedSamplePosts(false);
    await db.posts.clear();
    expect(await seedSamplePosts(false)).toBe(false);
    expect(await db.posts.count()).toBe(0);
  });

  it('does not seed when IndexedDB already has posts or the legacy key exists', async () => {
    await storePosts(makePost());
    expect(await seedSamplePosts(false)).toBe(false);
    await db.delete({ disableAutoOpen: false });
    expect(await seedSamplePosts(true)).toBe(false);
    expect(await db.posts.count()).toBe(0);
  });

  it('seeds once when two tabs start together', async () => {
    await Promise.all([seedSamplePosts(false, 1_800_000_000_000), seedSamplePosts(false, 1_800_000_000_005)]);
    expect(await db.posts.count()).toBe(3);
  });

  it('gives each sample a distinct timestamp id', () => {
    const ids = samplePosts(1_800_000_000_000).map((post) => post.id);
    expect(new Set(ids).size).toBe(3);
  });
});
