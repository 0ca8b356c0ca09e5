// Moderation and notifications on a connected device, without a server: the operations they
// queue (reject with a reason, hidePost, flag, dismissFlags, readNotifications), held bulk reviews
// and their Undo, pulled notifications and flags with this device's outstanding operations on
// top, the server's answers (acknowledged, refused) and a member switch, applied as the engine
// applies them (the server's side is tested with it).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rejectPost } from '../../../src/db/posts/posts';
import { likePost } from '../../../src/db/likes/likes';
import { reviewPosts, undoReview } from '../../../src/db/moderation/review';
import { countFlaggedItems, dismissFlags, flagItem, getMyFlag, hideFlagged } from '../../../src/db/flags/flags';
import { countUnread, listNotifications, markAllRead, markRead } from '../../../src/db/notifications/notifications';
import { db } from '../../../src/db/storage/schema';
import { UNDO_GRACE_MS } from '../../../src/db/ops/undo';
import { applyPullPage } from '../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../src/db/sync/apply-results';
import { countWaiting, nextBatch, NO_POST_ID } from '../../../src/db/ops/outbox';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { switchMember } from '../../../src/db/sync/member-switch';
import { refusalNotices } from '../../../src/sync/engine';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import type { Op, OpResult, PullResponse, WireFlag, WireNotification, WirePost } from '../../../src/shared/protocol';
import { pullPage, wirePost } from './fixtures';
import { liveQuery } from 'dexie';
import { countPendingPosts } from '../../../src/db/posts/posts';
import { loadInsightsWith } from '../../../src/sync/insights';
import { DataError } from '../../../src/db/storage/errors';
import { computeInsights } from '../../../src/shared/insights';
import { onLocalChange } from '../../../src/db/storage/changes';
import { makePost, signInAs, signInAsAdmin, signInAsMember } from '../factories';

const ADMIN = DEFAULT_ADMIN_EMAIL;
const AUTHOR = 'member@example.com';
const FLAGGER = 'flagger@example.com';
const ID = 41;

let clock = 1_800_000_000_000;
beforeEach(async () => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
  await markConnected();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const wire = (overrides: Partial<WirePost> = {}): WirePost =>
  wirePost(makePost({ id: ID, authorEmail: AUTHOR, status: 'pending', title: 'Server title' }), overrides);
const notification = (overrides: Partial<WireNotification> = {}): WireNotification => ({
  id: '00000000-0000-4000-8000-00000000000a',
  kind: 'rejected',
  postId: ID,
  replyId: null,
  actor: null,
  postTitle: 'Server title',
  reason: 'Needs sources',
  createdAt: 5,
  readAt: null,
  actorId: null,
  actorRole: null,
  seq: 2,
  ...overrides,
});
const wireFlag = (overrides: Partial<WireFlag> = {}): WireFlag => ({
  id: '00000000-0000-4000-8000-0000000000f1',
  postId: ID,
  replyId: null,
  reason: 'spam',
  text: '',
  flagger: 'Flagger',
  flaggerEmail: FLAGGER,
  createdAt: 3,
  state: 'open',
  seq: 2,
  ...overrides,
});
const page = pullPage;
const pull = (overrides: Partial<PullResponse>, owner = ADMIN) => applyPullPage(page(overrides), owner);
const queued = async () => (await db.outbox.orderBy('seq').toArray()).map((entry) => entry.op);
const answer = async (email: string, results: (batch: Op[]) => OpResult[], cursor = 0, now = Date.now()) => {
  const batch = await nextBatch(email, 100, now);
  return applyPushResults(batch, results(batch.map((entry) => entry.op)), cursor);
};
const refuse = (code: string, reason: string) => (ops: Op[]) => ops.map((op) => ({ id: op.id, status: 'refused' as const, code, reason }));

describe('reviews with a reason', () => {
  it('a rejection queues its reason and shows it at once; no notification is made here (the server sends them)', async () => {
    signInAsAdmin();
    await pull({ posts: [wire()] });
    await rejectPost(ID, '  Needs sources  ');
    expect(await queued()).toEqual([{ id: expect.any(String), type: 'reject', postId: ID, reason: 'Needs sources' }]);
    expect(await db.posts.get(ID)).toMatchObject({ status: 'rejected', reason: 'Needs sources', sync: { status: 'pending' } });
    expect(await db.notifications.count()).toBe(0);
    // Refused (another admin was first): the server's state comes back, the reason goes.
    const refusals = await answer(ADMIN, refuse('already_reviewed', 'This post was already reviewed'));
    expect(refusals).toMatchObject([{ code: 'already_reviewed', title: 'Server title' }]);
    expect(await db.posts.get(ID)).toMatchObject({ status: 'pending', reason: null });
    // A single refusal keeps today's notice.
    expect(refusalNotices(refusals)).toEqual([{ title: 'Already reviewed', description: 'This post was already reviewed' }]);
  });

  it('a pulled rejection carries the server’s reason', async () => {
    signInAsAdmin();
    await pull({ posts: [wire({ status: 'rejected', reason: 'Too short' })] });
    expect(await db.posts.get(ID)).toMatchObject({ status: 'rejected', reason: 'Too short', sync: { reason: 'Too short' } });
  });
});

describe('bulk review on a connected device', () => {
  it('holds every review under one token; Undo takes them all back; once the hold is over it is too late', async () => {
    signInAsAdmin();
    await pull({ posts: [wire(), wire({ id: 42, title: 'Second' }), wire({ id: 43, status: 'approved', title: 'Done' })] });
    const result = await reviewPosts([ID, 42, 43], 'approved');
    expect(result.alreadyReviewed).toEqual([{ id: 43, title: 'Done' }]);
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((row) => [row.op.type, row.postId, row.holdUntil, row.undoToken, row.role])).toEqual([
      ['approve', ID, result.undo!.until + UNDO_GRACE_MS, result.undo!.token, 'admin'],
      ['approve', 42, result.undo!.until + UNDO_GRACE_MS, result.undo!.token, 'admin'],
    ]);
    expect(await nextBatch(ADMIN, 100)).toEqual([]);
    expect(await db.posts.get(ID)).toMatchObject({ status: 'approved', sync: { status: 'pending' } });
    await undoReview(result.undo!);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.posts.bulkGet([ID, 42])).map((row) => row!.status)).toEqual(['pending', 'pending']);

    const again = await reviewPosts([ID, 42], 'rejected', 'Duplicate');
    clock = again.undo!.until + UNDO_GRACE_MS;
    await expect(undoReview(again.undo!)).rejects.toMatchObject({ code: 'too_late_to_undo' });
    expect((await nextBatch(ADMIN, 100)).map((row) => row.op)).toEqual([
      { id: expect.any(String), type: 'reject', postId: ID, reason: 'Duplicate' },
      { id: expect.any(String), type: 'reject', postId: 42, reason: 'Duplicate' },
    ]);
  });

  it('an operation queued after a held review of the same post waits with it; others go at once', async () => {
    signInAsAdmin();
    await pull({ posts: [wire(), wire({ id: 42, title: 'Second', status: 'approved' })] });
    const result = await reviewPosts([ID], 'approved');
    await likePost(ID);
    await likePost(42);
    // The like of the held post would reach the server before its approval: it waits.
    expect((await nextBatch(ADMIN, 100, clock)).map((row) => [row.op.type, row.postId])).toEqual([['like', 42]]);
    clock = result.undo!.until + UNDO_GRACE_MS;
    expect((await nextBatch(ADMIN, 100, clock)).map((row) => [row.op.type, row.postId])).toEqual([
      ['approve', ID],
      ['like', ID],
      ['like', 42],
    ]);
  });

  it('several reviews lost to another admin are told once, by title; each post shows the server’s state', async () => {
    signInAsAdmin();
    await pull({ posts: [wire(), wire({ id: 42, title: 'Second' }), wire({ id: 44, title: 'Third' })] });
    const result = await reviewPosts([ID, 42, 44], 'approved');
    clock = result.undo!.until + UNDO_GRACE_MS;
    const refusals = await answer(ADMIN, (ops) => [
      { id: ops[0]!.id, status: 'refused', code: 'already_reviewed', reason: 'This post was already reviewed' },
      { id: ops[1]!.id, status: 'refused', code: 'already_reviewed', reason: 'This post was already reviewed' },
      { id: ops[2]!.id, status: 'applied', post: wire({ id: 44, title: 'Third', status: 'approved', seq: 3 }) },
    ]);
    expect(refusalNotices(refusals)).toEqual([
      {
        title: 'Already reviewed',
        description: '2 of the posts you reviewed were already reviewed by another admin: “Server title”, “Second”.',
      },
    ]);
    expect((await db.posts.bulkGet([ID, 42, 44])).map((row) => row!.status)).toEqual(['pending', 'pending', 'approved']);
    // Nothing left to send: the applied review waits only for the pull that holds it.
    expect(await countWaiting()).toBe(0);
  });
});

describe('notifications on a connected device', () => {
  it('come only from pulls, are read at once here, and a pull cannot make them unread while the read is outstanding', async () => {
    signInAsMember();
    await pull({ notifications: [notification(), notification({ id: '00000000-0000-4000-8000-00000000000b', createdAt: 6 })] }, AUTHOR);
    expect(await countUnread()).toBe(2);
    expect((await listNotifications()).map((n) => n.createdAt)).toEqual([6, 5]);
    clock += 10;
    const kinds: string[] = [];
    const stop = onLocalChange((kind) => kinds.push(kind));
    await markRead(['00000000-0000-4000-8000-00000000000a']);
    stop();
    expect(kinds).toEqual(['op:readNotifications']); // the engine's trigger: the read is sent at once
    expect(await countUnread()).toBe(1);
    expect(await db.outbox.toArray()).toMatchObject([
      { postId: NO_POST_ID, op: { type: 'readNotifications', ids: ['00000000-0000-4000-8000-00000000000a'] } },
    ]);
    // The server's older word (unread) arrives meanwhile: the read stays.
    await pull({ notifications: [notification({ seq: 3 })], cursor: 3 }, AUTHOR);
    expect(await countUnread()).toBe(1);
    // Applied, then pulled with the server's read time: settled.
    await answer(AUTHOR, (ops) => [{ id: ops[0]!.id, status: 'applied' }], 4);
    await pull({ notifications: [notification({ seq: 4, readAt: clock })], cursor: 4 }, AUTHOR);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.notifications.get('00000000-0000-4000-8000-00000000000a'))!).toMatchObject({ readAt: clock, unread: 0 });
  });

  it('a post’s tombstone takes the notifications about it (its title among them); others stay', async () => {
    signInAsMember();
    const other = notification({ id: '00000000-0000-4000-8000-00000000000c', kind: 'mentioned', postId: 42, postTitle: 'Still here' });
    await pull({ posts: [wire({ status: 'approved' })], notifications: [notification({ kind: 'mentioned' }), other] }, AUTHOR);
    expect((await listNotifications()).map((n) => n.postTitle).sort()).toEqual(['Server title', 'Still here']);
    // Hidden from this member, deleted, or moved where they may not see it: the server sends its id as removed.
    await pull({ removed: [{ id: ID, seq: 3 }], cursor: 3 }, AUTHOR);
    expect((await listNotifications()).map((n) => n.postTitle)).toEqual(['Still here']);
    expect(await countUnread()).toBe(1);
  });

  it('a deleted reply takes the notifications about it, but "your reply was hidden"; a hidden one’s stay (an admin may restore it)', async () => {
    const REPLY = '00000000-0000-4000-8000-0000000000c1';
    const wireReply = (state: 'visible' | 'hidden' | 'deleted', seq: number) => ({
      id: REPLY,
      postId: ID,
      author: 'Bob',
      authorEmail: '',
      authorRole: 'user' as const,
      content: state === 'visible' ? 'A reply' : '',
      quoteId: null,
      createdAt: 1,
      editedAt: null,
      state,
      authorId: 'b0b0b0b0b0b0b0b0',
      seq,
    });
    const notes = [
      notification({ kind: 'replied', replyId: REPLY }),
      notification({ id: '00000000-0000-4000-8000-00000000000b', kind: 'replyHidden', replyId: REPLY }),
    ];
    signInAsMember();
    await pull({ posts: [wire({ status: 'approved' })], replies: [wireReply('visible', 2)], notifications: notes, cursor: 2 }, AUTHOR);
    await pull({ replies: [wireReply('hidden', 3)], cursor: 3 }, AUTHOR);
    expect((await listNotifications()).map((n) => n.kind).sort()).toEqual(['replied', 'replyHidden']);
    await pull({ replies: [wireReply('deleted', 4)], cursor: 4 }, AUTHOR);
    expect((await listNotifications()).map((n) => n.kind)).toEqual(['replyHidden']);
  });

  it('a refused read shows them unread again', async () => {
    signInAsMember();
    await pull({ notifications: [notification()] }, AUTHOR);
    expect(await markAllRead()).toBe(1);
    await answer(AUTHOR, refuse('invalid', 'No.'));
    expect(await countUnread()).toBe(1);
  });
});

describe('flags on a connected device', () => {
  it('a flag is queued under its own id, shown at once, then becomes the server’s; refused, it goes', async () => {
    signInAs(FLAGGER, 'Flagger');
    await pull({ posts: [wire({ status: 'approved' })] }, FLAGGER);
    const flag = await flagItem({ postId: ID, replyId: null }, 'spam', 'Links everywhere');
    expect(await queued()).toEqual([{ id: flag.id, type: 'flag', postId: ID, replyId: null, reason: 'spam', text: 'Links everywhere' }]);
    expect(await getMyFlag({ postId: ID, replyId: null })).toEqual(flag);
    await answer(FLAGGER, (ops) => [
      { id: ops[0]!.id, status: 'applied', flag: wireFlag({ id: flag.id, text: 'Links everywhere', seq: 4 }) },
    ]);
    expect(await countWaiting()).toBe(0);
    expect(await db.flags.get(flag.id)).toMatchObject({ state: 'open', sync: { seq: 4, state: 'open' } });

    const [reply] = [{ id: '00000000-0000-4000-8000-000000000001' }];
    await db.replies.add({
      ...reply,
      postId: ID,
      author: 'A',
      authorEmail: AUTHOR,
      authorRole: 'user',
      content: 'x',
      quoteId: null,
      createdAt: 1,
      editedAt: null,
      state: 'visible',
      listed: 1,
    });
    const second = await flagItem({ postId: ID, replyId: reply.id }, 'off-topic');
    await answer(FLAGGER, refuse('already_flagged', 'You already flagged this. An admin will look at it.'));
    expect(await db.flags.get(second.id)).toBeUndefined();
  });

  it('a dismissal shows at once and holds over an older pull; refused, the flags are open again', async () => {
    signInAsAdmin();
    await pull({ posts: [wire({ status: 'approved' })], flags: [wireFlag()] });
    expect(await countFlaggedItems()).toBe(1);
    await dismissFlags({ postId: ID, replyId: null });
    expect(await queued()).toEqual([{ id: expect.any(String), type: 'dismissFlags', postId: ID, replyId: null }]);
    expect(await countFlaggedItems()).toBe(0);
    await pull({ flags: [wireFlag({ seq: 3 })], cursor: 3 });
    expect(await countFlaggedItems()).toBe(0);
    await answer(ADMIN, refuse('admins_only', 'Only an admin can do this.'));
    expect(await countFlaggedItems()).toBe(1);
  });

  it('hiding a flagged post queues hidePost with the reason; refused, the post is back on the forum with its flags', async () => {
    signInAsAdmin();
    await pull({ posts: [wire({ status: 'approved' })], flags: [wireFlag()] });
    await hideFlagged({ postId: ID, replyId: null }, 'Spam');
    expect(await queued()).toEqual([{ id: expect.any(String), type: 'hidePost', postId: ID, reason: 'Spam' }]);
    expect(await db.posts.get(ID)).toMatchObject({ status: 'rejected', reason: 'Spam' });
    expect(await countFlaggedItems()).toBe(0);
    const refusals = await answer(ADMIN, refuse('not_on_forum', 'This post is not on the forum any more.'));
    expect(refusals).toHaveLength(1);
    expect(await db.posts.get(ID)).toMatchObject({ status: 'approved', reason: null });
    expect(await countFlaggedItems()).toBe(1);
  });
});

describe('a member switch', () => {
  it('takes away the previous member’s notifications and the flags they could see', async () => {
    signInAsAdmin();
    await pull({
      posts: [wire({ status: 'approved' })],
      flags: [wireFlag(), wireFlag({ id: '00000000-0000-4000-8000-0000000000f2', flaggerEmail: AUTHOR })],
      notifications: [notification()],
    });
    const member = signInAsMember();
    expect(await switchMember(member)).toBe(true);
    expect(await db.notifications.count()).toBe(0);
    expect((await db.flags.toArray()).map((flag) => flag.flaggerEmail)).toEqual([AUTHOR]);
  });
});

describe('the pending count and insights on a connected device', () => {
  it('the pending count is live on a pull', async () => {
    signInAsAdmin();
    const seen: number[] = [];
    const counted = new Promise<void>((resolve) => {
      const subscription = liveQuery(countPendingPosts).subscribe((count) => {
        seen.push(count);
        if (count === 2) {
          resolve();
          queueMicrotask(() => subscription.unsubscribe());
        }
      });
    });
    await pull({ posts: [wire(), wire({ id: 42 })] });
    await counted;
    expect(seen.at(-1)).toBe(2);
  });

  it('insights are the server’s when it answers, the device’s offline', async () => {
    signInAsAdmin();
    const server = computeInsights({ posts: [], likesByDay: [], now: 1 }, 'server');
    expect(await loadInsightsWith({ insights: async () => server }, true)).toEqual(server);
    const offline = { insights: () => Promise.reject(new DataError('offline')) };
    expect((await loadInsightsWith(offline, true)).source).toBe('device');
    expect((await loadInsightsWith({ insights: async () => server }, false)).source).toBe('device');
    const broken = { insights: () => Promise.reject(new DataError('server_error', { status: 500 })) };
    await expect(loadInsightsWith(broken, true)).rejects.toMatchObject({ code: 'server_error' });
  });
});
