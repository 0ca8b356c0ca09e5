import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  approvePost,
  countApprovedPosts,
  countPendingPosts,
  createPost,
  getPostsByIds,
  listApprovedPosts,
  listPendingPosts,
  listPostsByAuthor,
  rejectPost,
} from '../../../../src/db/posts/posts';
import { likePost } from '../../../../src/db/likes/likes';

import { signOut } from '../../../../src/db/members/accounts';
import { db } from '../../../../src/db/storage/schema';
import { POST_FIELDS } from '../../../../src/db/contracts';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../../factories';

afterEach(() => {
  vi.useRealTimers();
});

describe('createPost', () => {
  it('stores a pending post with the author fields of the session', async () => {
    signInAs('Writer@Example.com', 'Wren Writer');
    const post = await createPost({ title: '  Panel attrition  ', content: ' Week 3 dropped 12%. ', category: 'Trends' });
    expect(post).toMatchObject({
      title: 'Panel attrition',
      content: 'Week 3 dropped 12%.',
      category: 'Trends',
      author: 'Wren Writer',
      authorEmail: 'writer@example.com',
      authorRole: 'user',
      likes: 0,
      comments: 0,
      views: 0,
      date: 'Just now',
      isTopContributor: false,
      tags: [],
      status: 'pending',
    });
    expect(Object.keys(post).sort()).toEqual([...POST_FIELDS].sort());
    expect(await db.posts.get(post.id)).toMatchObject(post);
  });

  it('uses a timestamp id that stays unique within one millisecond', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
    signInAsMember();
    const posts = await Promise.all(Array.from({ length: 25 }, (_, i) => createPost({ title: `T${i}`, content: 'c' })));
    const ids = posts.map((post) => post.id);
    expect(new Set(ids).size).toBe(25);
    expect(Math.min(...ids)).toBe(Date.parse('2026-11-21T10:00:00Z'));
    expect(await db.posts.count()).toBe(25);
  });

  it('takes the current time as id even when a stored id is near the largest safe integer or a year ahead', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.parse('2026-11-21T10:00:00Z');
    vi.setSystemTime(now);
    await storePosts(makePost({ id: Number.MAX_SAFE_INTEGER - 1 }), makePost({ id: now + 365 * 86_400_000 }));
    signInAsMember();
    const first = await createPost({ title: 'After the huge id', content: 'c' });
    const second = await createPost({ title: 'And another', content: 'c' });
    expect([first.id, second.id]).toEqual([now, now + 1]);
    expect(Number.isSafeInteger(second.id)).toBe(true);
  });

  it('defaults the category to Quantitative', async () => {
    signInAsMember();
    expect((await createPost({ title: 't', content: 'c' })).category).toBe('Quantitative');
    expect((await createPost({ title: 't', content: 'c', category: 'Astrology' })).category).toBe('Quantitative');
  });

  it('refuses blank input with the spec message and writes nothing', async () => {
    signInAsMember();
    const attempt = createPost({ title: '   ', content: 'c' });
    await expect(attempt).rejects.toMatchObject({ code: 'invalid' });
    await expect(createPost({ title: 't', content: ' ' })).rejects.toMatchObject({
      title: 'Missing Information',
      message: 'Please fill in both title and content for your post.',
    });
    expect(await db.posts.count()).toBe(0);
  });

  it('needs a signed-in member', async () => {
    await expect(createPost({ title: 't', content: 'c' })).rejects.toMatchObject({ code: 'not_signed_in' });
  });
});

describe('likePost', () => {
  it('adds exactly one like per call', async () => {
    signInAsMember();
    const [post] = await storePosts(makePost({ likes: 7 }));
    expect(await likePost(post!.id)).toBe(8);
    expect(await likePost(post!.id)).toBe(9);
    expect((await db.posts.get(post!.id))?.likes).toBe(9);
  });

  it('loses none of 200 concurrent likes on one post', async () => {
    signInAsMember();
    const [post] = await storePosts(makePost({ likes: 5 }));
    await Promise.all(Array.from({ length: 200 }, () => likePost(post!.id)));
    expect((await db.posts.get(post!.id))?.likes).toBe(205);
  });

  it('refuses unknown and unapproved posts, and visitors', async () => {
    signInAsMember();
    const [pending] = await storePosts(makePost({ status: 'pending' }));
    await expect(likePost(42)).rejects.toMatchObject({ code: 'not_found' });
    await expect(likePost(pending!.id)).rejects.toMatchObject({ code: 'not_approved' });
    signOut();
    await expect(likePost(pending!.id)).rejects.toMatchObject({ code: 'not_signed_in' });
    expect((await db.posts.get(pending!.id))?.likes).toBe(0);
  });
});

describe('approvePost and rejectPost', () => {
  it('lets an admin approve or reject a pending post', async () => {
    const [a, b] = await storePosts(makePost({ status: 'pending' }), makePost({ status: 'pending' }));
    signInAsAdmin();
    expect((await approvePost(a!.id)).status).toBe('approved');
    expect((await rejectPost(b!.id)).status).toBe('rejected');
    expect((await db.posts.get(a!.id))?.status).toBe('approved');
    expect((await db.posts.get(b!.id))?.status).toBe('rejected');
  });

  it('rejects a non-admin, even one who edited the stored role', async () => {
    const [post] = await storePosts(makePost({ status: 'pending' }));
    signInAsMember();
    await expect(approvePost(post!.id)).rejects.toMatchObject({ code: 'admins_only' });
    localStorage.setItem('insightExchangeUser', JSON.stringify({ email: 'member@example.com', name: 'M', role: 'admin' }));
    await expect(rejectPost(post!.id)).rejects.toMatchObject({ code: 'admins_only' });
    signOut();
    await expect(approvePost(post!.id)).rejects.toMatchObject({ code: 'not_signed_in' });
    expect((await db.posts.get(post!.id))?.status).toBe('pending');
  });

  it('reviews pending posts only: a second review throws already_reviewed', async () => {
    const [post] = await storePosts(makePost({ status: 'pending' }));
    signInAsAdmin();
    await approvePost(post!.id);
    await expect(rejectPost(post!.id)).rejects.toMatchObject({ code: 'already_reviewed' });
    await expect(approvePost(post!.id)).rejects.toMatchObject({ message: 'This post was already reviewed' });
    await expect(approvePost(999)).rejects.toMatchObject({ code: 'not_found' });
    expect((await db.posts.get(post!.id))?.status).toBe('approved');
  });

  it('lets exactly one of two simultaneous reviews win', async () => {
    const [post] = await storePosts(makePost({ status: 'pending' }));
    signInAsAdmin();
    const results = await Promise.allSettled([approvePost(post!.id), rejectPost(post!.id)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const failure = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(failure.reason).toMatchObject({ code: 'already_reviewed' });
  });
});

describe('reads', () => {
  it('lists approved posts newest first, filtered by category', async () => {
    await storePosts(
      makePost({ id: 10, title: 'Sampling frames', content: 'Address-based sampling', category: 'Quantitative' }),
      makePost({ id: 20, title: 'Coding open ends', content: 'We used an LLM for coding', category: 'AI & Technology' }),
      makePost({ id: 30, title: 'Diary study', content: 'Mobile ethnography with LLM prompts', category: 'Qualitative' }),
      makePost({ id: 40, title: 'Pending LLM post', content: 'x', status: 'pending', category: 'AI & Technology' }),
      makePost({ id: 50, title: 'Rejected llm post', content: 'x', status: 'rejected' }),
    );
    const ids = async (query: Parameters<typeof listApprovedPosts>[0]) => (await listApprovedPosts(query)).map((p) => p.id);
    expect(await ids({})).toEqual([30, 20, 10]);
    expect(await ids({ category: 'All' })).toEqual([30, 20, 10]);
    expect(await ids({ category: 'Qualitative' })).toEqual([30]);
    expect(await ids({ limit: 2 })).toEqual([30, 20]);
    expect(await countApprovedPosts()).toBe(3);
    expect(await countApprovedPosts('Qualitative')).toBe(1);
  });

  it("lists a member's posts of every status newest first, and the pending queue oldest first", async () => {
    await storePosts(
      makePost({ id: 1, authorEmail: 'me@x.com', status: 'approved' }),
      makePost({ id: 2, authorEmail: 'me@x.com', status: 'pending' }),
      makePost({ id: 3, authorEmail: 'me@x.com', status: 'rejected' }),
      makePost({ id: 4, authorEmail: 'other@x.com', status: 'pending' }),
      makePost({ id: 5, authorEmail: 'ME@x.com', status: 'pending' }),
    );
    expect((await listPostsByAuthor('me@x.com')).map((p) => p.id)).toEqual([3, 2, 1]);
    expect((await listPendingPosts()).map((p) => p.id)).toEqual([2, 4, 5]);
    expect((await listPendingPosts({ limit: 1 })).map((p) => p.id)).toEqual([2]);
    expect(await countPendingPosts()).toBe(3);
    expect((await getPostsByIds([3, 99, 1])).map((p) => p.id)).toEqual([3, 1]);
  });
});
