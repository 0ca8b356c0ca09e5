// What's new: a visit is a page load; posts and replies that arrived on this device after
// the previous visit began, by someone else, not seen yet, are new. Arrival times come from a local
// create, an import, a pull (0 for a pull from the start), in both modes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { markSeen, newPostIds, newReplyIds, startVisit } from '../../../../src/db/posts/whats-new';
import { createPost, approvePost } from '../../../../src/db/posts/posts';
import { createReply } from '../../../../src/db/replies/replies';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import type { WireReply } from '../../../../src/shared/protocol';
import { makePost, signInAs, signInAsAdmin } from '../../factories';
import { pullPage, wirePost } from '../../sync/fixtures';

const ME = 'member@example.com';
const OTHER = 'other@example.com';
let clock = 1_800_000_000_000;
beforeEach(() => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());

const reply = (id: string, postId: number, authorEmail: string, seq: number): WireReply => ({
  id,
  postId,
  author: 'Someone',
  authorEmail,
  authorRole: 'user',
  content: 'A reply',
  quoteId: null,
  createdAt: seq,
  editedAt: null,
  state: 'visible',
  authorId: '',
  seq,
});

describe('visits', () => {
  it('the first visit ever returns 0 (nothing is new); each next one returns when the previous began, per member', async () => {
    expect(await startVisit(ME)).toBe(0);
    clock += 5_000;
    expect(await startVisit(ME)).toBe(1_800_000_000_000);
    expect(await startVisit(OTHER)).toBe(0);
    clock += 5_000;
    expect(await startVisit(' Member@Example.com ')).toBe(1_800_000_005_000);
  });
});

describe('new posts and replies on a local-only device', () => {
  it('are the approved posts by others that arrived after the previous visit, until seen', async () => {
    const since = await startVisit(ME);
    expect(since).toBe(0);
    expect(await newPostIds(ME, since)).toEqual([]);
    clock += 1_000;
    signInAs(OTHER, 'Other');
    const before = await createPost({ title: 'Before the visit', content: 'Old news here.' });
    clock += 1_000;
    const visit = await startVisit(ME); // second visit: what arrives after the first one began is new
    expect(visit).toBe(1_800_000_000_000);
    clock += 1_000;
    const later = await createPost({ title: 'After the visit', content: 'Fresh news here.' });
    signInAs(ME, 'Me');
    const mine = await createPost({ title: 'My own post', content: 'Not news to me.' });
    signInAsAdmin();
    for (const post of [before, later, mine]) await approvePost(post.id);
    // Both others' posts arrived after the first visit began; pending ones never count.
    expect(await newPostIds(ME, visit)).toEqual([later.id, before.id].sort((a, b) => b - a));
    expect(await newPostIds(ME, clock)).toEqual([]);
    await markSeen(ME, { postIds: [later.id] });
    expect(await newPostIds(ME, visit)).toEqual([before.id]);
    // Seen is per member.
    expect(await newPostIds(OTHER, visit)).toEqual([mine.id]);

    clock += 1_000;
    signInAs(OTHER, 'Other');
    const answer = await createReply(before.id, 'A new reply');
    signInAs(ME, 'Me');
    const own = await createReply(before.id, 'My reply');
    expect(await newReplyIds(ME, before.id, visit)).toEqual([answer.id]);
    expect(await newReplyIds(OTHER, before.id, visit)).toEqual([own.id]);
    await markSeen(ME, { replyIds: [answer.id] });
    expect(await newReplyIds(ME, before.id, visit)).toEqual([]);
    expect(await newReplyIds(ME, before.id, 0)).toEqual([]);
  });
});

describe('new posts and replies on a connected device', () => {
  it('a pull from the start brings nothing new; a later pull brings new posts and replies', async () => {
    await markConnected();
    signInAs(ME, 'Me');
    await applyPullPage(pullPage({ posts: [wirePost(makePost({ id: 1, authorEmail: OTHER }))], cursor: 5, more: true }), ME, 0);
    await applyPullPage(pullPage({ posts: [wirePost(makePost({ id: 2, authorEmail: OTHER }))], cursor: 10 }), ME, 5);
    expect((await db.posts.bulkGet([1, 2])).map((post) => post!.arrivedAt)).toEqual([0, 0]);
    const since = clock - 1;
    clock += 1_000;
    await applyPullPage(
      pullPage({
        posts: [
          wirePost(makePost({ id: 3, authorEmail: OTHER })),
          wirePost(makePost({ id: 1, authorEmail: OTHER, likes: 4 }), { seq: 11 }),
        ],
        replies: [reply('00000000-0000-4000-8000-000000000001', 1, OTHER, 11)],
        cursor: 11,
      }),
      ME,
      10,
    );
    expect(await newPostIds(ME, since)).toEqual([3]);
    // A post already here keeps when it arrived.
    expect((await db.posts.get(1))!.arrivedAt).toBe(0);
    expect(await newReplyIds(ME, 1, since)).toEqual(['00000000-0000-4000-8000-000000000001']);
  });
});
