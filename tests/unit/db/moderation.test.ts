// Moderation and notifications on a local-only device: every operation's effect and the
// notifications it writes for the right members (live, as another tab's live query sees them),
// flags once per member and their settling, bulk review with Undo (and too late), insights over a
// seeded set, and admins_only for members.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveQuery } from 'dexie';
import { db } from '../../../src/db/storage/schema';
import {
  createPost,
  countPendingPosts,
  getPost,
  listPendingPosts,
  listPostsByAuthor,
  rejectPost,
  approvePost,
} from '../../../src/db/posts/posts';
import { likePost } from '../../../src/db/likes/likes';
import { deletePost, editPost, undoDeletion } from '../../../src/db/posts/editing';
import { createReply } from '../../../src/db/replies/replies';
import {
  countFlaggedItems,
  deleteFlagged,
  dismissFlags,
  flagItem,
  getMyFlag,
  hideFlagged,
  listFlaggedItems,
} from '../../../src/db/flags/flags';
import { reviewPosts, undoReview } from '../../../src/db/moderation/review';
import {
  countUnread,
  listNotifications,
  markAllRead,
  markPostRead,
  markRead,
  setSystemNotifications,
  systemNotificationsOn,
} from '../../../src/db/notifications/notifications';
import { deviceInsights } from '../../../src/db/insights/device-insights';
import { loadInsightsWith } from '../../../src/sync/insights';
import { UNDO_GRACE_MS } from '../../../src/db/ops/undo';
import { UNDO_WINDOW_MS } from '../../../src/shared/post-rules';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../factories';

const AUTHOR = 'member@example.com';
const OTHER = 'other@example.com';
const START = Date.UTC(2026, 2, 12, 10); // a Thursday

let clock = START;
beforeEach(() => {
  clock = START;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const asOther = () => signInAs(OTHER, 'Other Member');
const notificationsOf = (email: string) => db.notifications.where('[email+createdAt]').between([email, 0], [email, Infinity]).toArray();

/**
 * `read` as another tab signed in as `email` runs it: the data layer reads the session
 * synchronously when a read starts, so the session is that tab's only for that moment.
 */
function inTabOf<T>(email: string, read: () => Promise<T>): () => Promise<T> {
  return () => {
    const saved = localStorage.getItem('insightExchangeUser');
    signInAs(email, 'Tab');
    try {
      return read();
    } finally {
      if (saved === null) localStorage.removeItem('insightExchangeUser');
      else localStorage.setItem('insightExchangeUser', saved);
    }
  };
}

/** The next value of a live query for which `accept` holds (as another tab's useLiveQuery would see it). */
function nextLive<T>(query: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const subscription = liveQuery(query).subscribe({
      next: (value) => {
        if (!accept(value)) return;
        resolve(value);
        queueMicrotask(() => subscription.unsubscribe());
      },
      error: reject,
    });
  });
}

async function pendingPostBy(email = AUTHOR, overrides = {}) {
  const [post] = await storePosts(makePost({ authorEmail: email, status: 'pending', ...overrides }));
  return post!;
}

describe('reviews on a local-only device', () => {
  it('createPost sets submittedAt; a rejection keeps its trimmed reason and review time and tells the author, live', async () => {
    signInAsMember();
    const post = await createPost({ title: 'On panels', content: 'Panel fatigue is real.', category: 'Trends' });
    expect((await db.posts.get(post.id))!.submittedAt).toBe(START);
    const unread = nextLive(inTabOf(AUTHOR, countUnread), (count) => count === 1);

    signInAsAdmin();
    clock += 60_000;
    await rejectPost(post.id, '  Needs sources.  ');
    expect(await db.posts.get(post.id)).toMatchObject({ status: 'rejected', reason: 'Needs sources.', reviewedAt: START + 60_000 });
    expect(await listNotifications()).toEqual([]); // the admin hears nothing of their own act

    signInAsMember();
    await expect(unread).resolves.toBe(1);
    expect(await listNotifications()).toEqual([
      expect.objectContaining({
        kind: 'rejected',
        postId: post.id,
        postTitle: 'On panels',
        reason: 'Needs sources.',
        actor: null,
        readAt: null,
      }),
    ]);
    // Profile shows the reason; the posts mirror's shape is untouched (reason is not a post field).
    expect((await listPostsByAuthor(AUTHOR))[0]).toMatchObject({ id: post.id, status: 'rejected', reason: 'Needs sources.' });
    expect(Object.keys((await getPost(post.id))!)).not.toContain('submittedAt');

    // A resubmitting edit waits for review again, from now, without the reason.
    clock += 60_000;
    await editPost(post.id, { title: 'On panels', content: 'Now with sources.', category: 'Trends' });
    expect(await db.posts.get(post.id)).toMatchObject({ status: 'pending', reason: null, submittedAt: START + 120_000 });
    expect((await listPendingPosts())[0]).toMatchObject({ id: post.id, reason: null });
  });

  it('an approval tells the author without a reason; a blank reason is none; a too long one is refused', async () => {
    const a = await pendingPostBy();
    const b = await pendingPostBy();
    signInAsAdmin();
    await expect(rejectPost(b.id, 'x'.repeat(501))).rejects.toMatchObject({ code: 'invalid' });
    expect((await db.posts.get(b.id))!.status).toBe('pending');
    await approvePost(a.id);
    await rejectPost(b.id, '   ');
    expect(await db.posts.get(b.id)).toMatchObject({ status: 'rejected', reason: null });
    expect((await notificationsOf(AUTHOR)).map((n) => [n.kind, n.reason]).sort()).toEqual([
      ['approved', null],
      ['rejected', null],
    ]);
  });
});

describe('replies and notifications', () => {
  it('a reply tells the post’s author; a quote tells the quoted author; nobody hears of their own', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR, title: 'Sampling' }));
    asOther();
    const first = await createReply(post!.id, 'First!');
    clock += 1;
    signInAsMember();
    await createReply(post!.id, 'Thanks', first.id); // the author quotes Other: only Other hears
    clock += 1;
    signInAs('third@example.com', 'Third');
    await createReply(post!.id, 'Agreed', first.id);
    expect((await notificationsOf(AUTHOR)).map((n) => [n.kind, n.actor])).toEqual([
      ['replied', 'Other Member'],
      ['replied', 'Third'],
    ]);
    expect((await notificationsOf(OTHER)).map((n) => [n.kind, n.actor])).toEqual([
      ['quoted', 'Test Member'],
      ['quoted', 'Third'],
    ]);
  });

  it('markRead and markAllRead read only the member’s own; the count follows', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    asOther();
    for (const text of ['One', 'Two', 'Three']) {
      await createReply(post!.id, text);
      clock += 1;
    }
    signInAsMember();
    const [newest] = await listNotifications();
    clock += 1000;
    await markRead([newest!.id]);
    expect(await countUnread()).toBe(2);
    expect((await listNotifications())[0]).toMatchObject({ id: newest!.id, readAt: clock });
    asOther();
    await markRead([newest!.id]); // not theirs: nothing changes
    expect(await countUnread()).toBe(0);
    signInAsMember();
    expect(await markAllRead()).toBe(2);
    expect(await countUnread()).toBe(0);
    expect(await markAllRead()).toBe(0);
  });

  it('markPostRead reads the member’s unread notifications about that post only', async () => {
    const [post, other] = await storePosts(makePost({ authorEmail: AUTHOR }), makePost({ authorEmail: AUTHOR }));
    asOther();
    for (const text of ['One', 'Two']) {
      await createReply(post!.id, text);
      clock += 1;
    }
    await createReply(other!.id, 'Elsewhere');
    signInAsMember();
    expect(await countUnread()).toBe(3);
    expect(await markPostRead(post!.id)).toBe(2);
    expect(await countUnread()).toBe(1);
    expect((await listNotifications()).filter((n) => n.readAt === null).map((n) => n.postId)).toEqual([other!.id]);
    expect(await markPostRead(post!.id)).toBe(0);
  });

  it('system notifications are a per-member choice on this device, off by default', async () => {
    signInAsMember();
    expect(await systemNotificationsOn()).toBe(false);
    await setSystemNotifications(true);
    expect(await systemNotificationsOn()).toBe(true);
    asOther();
    expect(await systemNotificationsOn()).toBe(false);
    signInAsMember();
    await setSystemNotifications(false);
    expect(await systemNotificationsOn()).toBe(false);
  });
});

describe('flags', () => {
  it('a member flags what others wrote, once; never their own; `other` needs words', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    const target = { postId: post!.id, replyId: null };
    signInAsMember();
    await expect(flagItem(target, 'spam')).rejects.toMatchObject({ code: 'cannot_flag_own' });
    asOther();
    await expect(flagItem(target, 'other', '  ')).rejects.toMatchObject({ code: 'invalid' });
    const flag = await flagItem(target, 'other', '  Off the rails  ');
    expect(flag).toMatchObject({
      postId: post!.id,
      replyId: null,
      reason: 'other',
      text: 'Off the rails',
      flaggerEmail: OTHER,
      state: 'open',
    });
    await expect(flagItem(target, 'spam')).rejects.toMatchObject({ code: 'already_flagged' });
    expect(await getMyFlag(target)).toEqual(flag);
    signInAsMember();
    expect(await getMyFlag(target)).toBeUndefined();
    await expect(flagItem({ postId: 999, replyId: null }, 'spam')).rejects.toMatchObject({ code: 'not_found' });
    await expect(listFlaggedItems()).rejects.toMatchObject({ code: 'admins_only' });
    await expect(countFlaggedItems()).rejects.toMatchObject({ code: 'admins_only' });
    await expect(dismissFlags(target)).rejects.toMatchObject({ code: 'admins_only' });
    await expect(hideFlagged(target)).rejects.toMatchObject({ code: 'admins_only' });
    await expect(deleteFlagged(target)).rejects.toMatchObject({ code: 'admins_only' });
  });

  it('the queue lists the most flagged first, then the oldest; dismissing leaves the item as it is', async () => {
    const [a, b] = await storePosts(makePost({ authorEmail: AUTHOR, title: 'A' }), makePost({ authorEmail: AUTHOR, title: 'B' }));
    asOther();
    const reply = await createReply(a!.id, 'Buy my course');
    await flagItem({ postId: a!.id, replyId: null }, 'off-topic');
    clock += 1;
    await flagItem({ postId: b!.id, replyId: null }, 'spam');
    clock += 1;
    signInAs('third@example.com', 'Third');
    await flagItem({ postId: b!.id, replyId: null }, 'inappropriate');
    clock += 1;
    await flagItem({ postId: a!.id, replyId: reply.id }, 'spam');
    signInAsAdmin();
    expect(await countFlaggedItems()).toBe(3);
    const items = await listFlaggedItems();
    expect(items.map((item) => [item.post.title, item.reply?.id ?? null, item.flags.length])).toEqual([
      ['B', null, 2],
      ['A', null, 1],
      ['A', reply.id, 1],
    ]);
    expect(items[0]!.flags.map((flag) => flag.flagger)).toEqual(['Other Member', 'Third']);
    const live = nextLive(countFlaggedItems, (count) => count === 2);
    await dismissFlags({ postId: b!.id, replyId: null });
    await expect(live).resolves.toBe(2);
    expect((await db.posts.get(b!.id))!.status).toBe('approved');
    expect((await db.flags.where('target').equals(`post:${b!.id}`).toArray()).map((flag) => flag.state)).toEqual([
      'dismissed',
      'dismissed',
    ]);
    // A member may not flag the same item again after a dismissal.
    asOther();
    await expect(flagItem({ postId: b!.id, replyId: null }, 'spam')).rejects.toMatchObject({ code: 'already_flagged' });
  });

  it('hiding a flagged post rejects it with the reason, tells its author and settles its flags; a post off the forum cannot be hidden', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR, title: 'Hot take' }));
    const target = { postId: post!.id, replyId: null };
    asOther();
    await flagItem(target, 'inappropriate');
    // A reply by another member, flagged too: hiding the post settles its flag as well.
    signInAsMember();
    const reply = await createReply(post!.id, 'Agreed, and more.');
    asOther();
    await flagItem({ postId: post!.id, replyId: reply.id }, 'spam');
    signInAsAdmin();
    expect(await countFlaggedItems()).toBe(2);
    await hideFlagged(target, ' Personal attacks ');
    expect(await db.posts.get(post!.id)).toMatchObject({ status: 'rejected', reason: 'Personal attacks' });
    expect(await countFlaggedItems()).toBe(0);
    expect((await db.flags.toArray()).map((flag) => flag.state)).toEqual(['resolved', 'resolved']);
    expect((await notificationsOf(AUTHOR)).map((n) => [n.kind, n.reason])).toEqual([['postHidden', 'Personal attacks']]);
    await expect(hideFlagged(target)).rejects.toMatchObject({ code: 'not_on_forum' });
  });

  it('hiding a flagged reply hides it, tells its author and settles its flags', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    asOther();
    const reply = await createReply(post!.id, 'Rude words');
    signInAsMember();
    await flagItem({ postId: post!.id, replyId: reply.id }, 'inappropriate');
    signInAsAdmin();
    await hideFlagged({ postId: post!.id, replyId: reply.id });
    expect((await db.replies.get(reply.id))!.state).toBe('hidden');
    expect(await countFlaggedItems()).toBe(0);
    expect((await notificationsOf(OTHER)).map((n) => [n.kind, n.replyId])).toEqual([['replyHidden', reply.id]]);
  });

  it('deleting a flagged item settles its flags (a post’s replies’ too); Undo opens them again', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    asOther();
    const reply = await createReply(post!.id, 'Spam link');
    signInAs('third@example.com', 'Third');
    await flagItem({ postId: post!.id, replyId: reply.id }, 'spam');
    await flagItem({ postId: post!.id, replyId: null }, 'spam');
    signInAsAdmin();
    const undoReply = await deleteFlagged({ postId: post!.id, replyId: reply.id });
    expect(await countFlaggedItems()).toBe(1);
    await undoDeletion(undoReply);
    expect(await countFlaggedItems()).toBe(2);
    const undo = await deleteFlagged({ postId: post!.id, replyId: null });
    expect(await db.posts.get(post!.id)).toBeUndefined();
    expect(await countFlaggedItems()).toBe(0);
    await undoDeletion(undo);
    expect(await countFlaggedItems()).toBe(2);
    // A member's own deletion settles the flags on it too.
    await deletePost(post!.id);
    expect(await countFlaggedItems()).toBe(0);
  });
});

describe('bulk review with Undo', () => {
  it('reviews the pending posts at once, skips and names those already reviewed, and Undo puts everything back exactly', async () => {
    const a = await pendingPostBy(AUTHOR, { title: 'A' });
    const b = await pendingPostBy(OTHER, { title: 'B' });
    const [done] = await storePosts(makePost({ status: 'approved', title: 'Done' }));
    signInAsAdmin();
    const before = await db.posts.bulkGet([a.id, b.id]);
    const queue = nextLive(countPendingPosts, (count) => count === 0);
    const result = await reviewPosts([a.id, done!.id, b.id, a.id], 'rejected', ' Off-topic ');
    await expect(queue).resolves.toBe(0);
    expect(result.reviewed).toEqual([a.id, b.id]);
    expect(result.alreadyReviewed).toEqual([{ id: done!.id, title: 'Done' }]);
    expect(result.undo).toEqual({ token: expect.any(String), until: START + UNDO_WINDOW_MS });
    expect(await db.posts.get(a.id)).toMatchObject({ status: 'rejected', reason: 'Off-topic', reviewedAt: START });
    expect((await notificationsOf(AUTHOR)).map((n) => n.kind)).toEqual(['rejected']);
    expect((await notificationsOf(OTHER)).map((n) => n.kind)).toEqual(['rejected']);

    clock += UNDO_WINDOW_MS - 1;
    await undoReview(result.undo!);
    expect(await countPendingPosts()).toBe(2);
    const after = await db.posts.bulkGet([a.id, b.id]);
    expect(after.map((row) => ({ ...row, rev: 0 }))).toEqual(before.map((row) => ({ ...row, rev: 0 })));
    expect(await db.notifications.count()).toBe(0);
    await expect(undoReview(result.undo!)).rejects.toMatchObject({ code: 'too_late_to_undo' });
  });

  it('each post’s own reason (as typed on its card) goes with it; one too long refuses them all before anything is written', async () => {
    const a = await pendingPostBy(AUTHOR, { title: 'A' });
    const b = await pendingPostBy(OTHER, { title: 'B' });
    signInAsAdmin();
    await expect(reviewPosts([a.id, b.id], 'rejected', { [a.id]: 'Fine', [b.id]: 'x'.repeat(501) })).rejects.toMatchObject({
      code: 'invalid',
    });
    expect(await countPendingPosts()).toBe(2);
    const result = await reviewPosts([a.id, b.id], 'rejected', { [a.id]: ' Duplicate of another thread ' });
    expect(result.reviewed).toEqual([a.id, b.id]);
    expect(await db.posts.get(a.id)).toMatchObject({ status: 'rejected', reason: 'Duplicate of another thread' });
    expect((await db.posts.get(b.id))!.reason ?? null).toBeNull();
  });

  it('an Undo pressed within the window counts though a busy device gets to it after the window', async () => {
    const a = await pendingPostBy();
    signInAsAdmin();
    const result = await reviewPosts([a.id], 'approved');
    const pressedAt = clock + UNDO_WINDOW_MS - 1;
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS + 2_000;
    await undoReview(result.undo!, pressedAt);
    expect((await db.posts.get(a.id))!.status).toBe('pending');
  });

  it('Undo is too late once the window and its grace are over; nothing reviewed gives no Undo', async () => {
    const a = await pendingPostBy();
    signInAsAdmin();
    const result = await reviewPosts([a.id], 'approved');
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS;
    await expect(undoReview(result.undo!)).rejects.toMatchObject({ code: 'too_late_to_undo' });
    expect((await db.posts.get(a.id))!.status).toBe('approved');
    expect(await reviewPosts([a.id], 'rejected')).toEqual({ reviewed: [], alreadyReviewed: [{ id: a.id, title: a.title }], undo: null });
    await expect(reviewPosts([a.id], 'rejected', 'x'.repeat(501))).rejects.toMatchObject({ code: 'invalid' });
  });

  it('is for admins only', async () => {
    const a = await pendingPostBy();
    signInAsMember();
    await expect(reviewPosts([a.id], 'approved')).rejects.toMatchObject({ code: 'admins_only' });
    await expect(undoReview({ token: 'x', until: 0 })).rejects.toMatchObject({ code: 'admins_only' });
  });
});

describe('insights on this device', () => {
  it('counts posts per category, posts and likes per week, review times and the queue over a seeded set', async () => {
    const DAY = 86_400_000;
    const hour = 3_600_000;
    await storePosts(
      makePost({ category: 'Trends', status: 'approved', submittedAt: START - 2 * DAY, reviewedAt: START - 2 * DAY + hour } as never),
      makePost({ category: 'Trends', status: 'rejected', submittedAt: START - 2 * DAY, reviewedAt: START - 2 * DAY + 3 * hour } as never),
      makePost({ category: 'Qualitative', status: 'pending', submittedAt: START - DAY } as never),
      makePost({ category: 'Qualitative', status: 'approved' }), // from before version 6: times unknown
    );
    const [liked] = await storePosts(makePost({ category: 'Trends', status: 'approved' }));
    signInAsMember();
    await likePost(liked!.id);
    await likePost(liked!.id);
    expect(await db.likeDays.toArray()).toEqual([{ day: '2026-03-12', likes: 2 }]);

    const insights = await deviceInsights(START);
    expect(insights.source).toBe('device');
    expect(insights.postsPerCategory.find((c) => c.category === 'Trends')).toEqual({ category: 'Trends', posts: 3, approved: 2 });
    expect(insights.postsPerCategory.find((c) => c.category === 'Qualitative')).toEqual({ category: 'Qualitative', posts: 2, approved: 1 });
    expect(insights.perWeek.at(-1)).toEqual({ week: '2026-03-09', posts: 3, likes: 2 });
    expect(insights.reviewTime).toEqual({ reviewed: 2, medianMs: hour, p90Ms: 3 * hour });
    expect(insights.queue.at(-1)).toEqual({ day: '2026-03-12', pending: 1 });
    expect(insights.queue.at(-3)).toEqual({ day: '2026-03-10', pending: 0 });

    await expect(loadInsightsWith({}, true)).rejects.toMatchObject({ code: 'admins_only' });
    signInAsAdmin();
    const insights2 = await loadInsightsWith({ insights: () => Promise.reject(new Error('never asked: local-only')) }, true);
    expect(insights2).toMatchObject({ source: 'device', computedAt: START });
  });
});
