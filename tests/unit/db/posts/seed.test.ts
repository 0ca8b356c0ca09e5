import { describe, expect, it } from 'vitest';
import { samplePosts, seedSamplePosts } from '../../../../src/db/posts/seed';
import { db } from '../../../../src/db/storage/schema';
import { countVisibleReplies } from '../../../../src/db/replies/reply-counts';
import { sampleReplies } from '../../../../src/shared/sample-replies';
import { makePost, storePosts } from '../../factories';

describe('seedSamplePosts', () => {
  it('writes the three approved sample posts on the first start', async () => {
    expect(await seedSamplePosts(false, 1_800_000_000_000)).toBe(true);
    const posts = await db.posts.orderBy('id').reverse().toArray();
    expect(posts.map((post) => post.category)).toEqual(['AI & Technology', 'Qualitative', 'Quantitative']);
    expect(posts.every((post) => post.status === 'approved' && post.content.length > 200)).toBe(true);
  });

  it('writes their sample replies too, each post counting its visible replies', async () => {
    const now = 1_800_000_000_000;
    await seedSamplePosts(false, now);
    const posts = await db.posts.orderBy('id').toArray();
    const replies = await db.replies.toArray();
    const expected = sampleReplies(samplePosts(now), () => 'id');
    expect(replies).toHaveLength(expected.length);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((reply) => reply.state === 'visible' && reply.listed === 1 && reply.quoteId === null)).toBe(true);
    expect(new Set(replies.map((reply) => reply.id)).size).toBe(replies.length);
    for (const post of posts) {
      const own = replies.filter((reply) => reply.postId === post.id);
      expect(own.length).toBeGreaterThan(0);
      expect(post.comments).toBe(own.length);
      expect(await countVisibleReplies(post.id)).toBe(post.comments);
      expect(own.every((reply) => reply.createdAt > post.id && reply.createdAt <= now)).toBe(true);
    }
    expect(replies.map((reply) => reply.content).sort()).toEqual(expected.map((reply) => reply.content).sort());
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
    expect(await db.replies.count()).toBe(sampleReplies(samplePosts(1_800_000_000_000), () => 'id').length);
  });

  it('gives each sample a distinct timestamp id', () => {
    const ids = samplePosts(1_800_000_000_000).map((post) => post.id);
    expect(new Set(ids).size).toBe(3);
  });
});
