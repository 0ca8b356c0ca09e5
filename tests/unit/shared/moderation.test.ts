// The shared rules of moderation and notifications, and the insights computation both modes run.
import { describe, expect, it } from 'vitest';
import { computeInsights, percentile, weekStart, dayOf, INSIGHT_DAYS, INSIGHT_WEEKS } from '../../../src/shared/insights';
import {
  mayFlag,
  notificationPath,
  notificationsForHiddenReply,
  notificationsForReply,
  notificationsForReview,
  notificationTitle,
  notificationsForWatchers,
  collapses,
  pendingDescription,
  unreadDescription,
  isSilencedAt,
} from '../../../src/shared/moderation';
import { ERRORS, silenceMessage } from '../../../src/shared/errors';
import { formatDayTime } from '../../../src/shared/dates';
import { validateFlag, validateReason } from '../../../src/shared/validation';

const admin = { email: 'admin@insightexchange.app', role: 'admin' };
const ann = { email: 'ann@example.com', role: 'user' };
const bob = { email: 'bob@example.com', role: 'user' };
const post = { id: 7, title: 'Panel fatigue', authorEmail: ann.email };

describe('notifications', () => {
  it('a review tells the author, with the reason of a rejection only', () => {
    expect(notificationsForReview(post, 'rejected', 'Off topic', admin)).toEqual([
      {
        recipientEmail: ann.email,
        kind: 'rejected',
        postId: 7,
        replyId: null,
        actor: null,
        postTitle: 'Panel fatigue',
        reason: 'Off topic',
      },
    ]);
    expect(notificationsForReview(post, 'approved', 'ignored', admin)[0]!.reason).toBeNull();
  });

  it('nobody hears about what they did themselves', () => {
    expect(notificationsForReview({ ...post, authorEmail: admin.email }, 'approved', null, admin)).toEqual([]);
    expect(notificationsForReply(post, { id: 'r1', author: 'Ann', authorEmail: ann.email }, null, ann)).toEqual([]);
    expect(notificationsForHiddenReply(post, { id: 'r1', authorEmail: admin.email }, admin)).toEqual([]);
  });

  it('a reply tells the post author; a quote tells the quoted author, once each', () => {
    const reply = { id: 'r2', author: 'Bob', authorEmail: bob.email };
    expect(notificationsForReply(post, reply, null, bob).map((n) => [n.recipientEmail, n.kind])).toEqual([[ann.email, 'replied']]);
    const carol = 'carol@example.com';
    expect(
      notificationsForReply(post, reply, { authorEmail: carol, state: 'visible' }, bob).map((n) => [n.recipientEmail, n.kind]),
    ).toEqual([
      [carol, 'quoted'],
      [ann.email, 'replied'],
    ]);
    // The post's author quoted: one notification, "quoted".
    expect(notificationsForReply(post, reply, { authorEmail: ann.email, state: 'visible' }, bob).map((n) => n.kind)).toEqual(['quoted']);
    // A hidden quoted reply tells nobody of the quote.
    expect(notificationsForReply(post, reply, { authorEmail: carol, state: 'hidden' }, bob).map((n) => n.kind)).toEqual(['replied']);
  });

  it('reads as one line and leads to the post (at the reply)', () => {
    const [n] = notificationsForReply(post, { id: 'r2', author: 'Bob', authorEmail: bob.email }, null, bob);
    expect(notificationTitle(n!)).toBe('Bob replied to your post “Panel fatigue”');
    expect(notificationPath({ ...n!, kind: 'replied' })).toBe('/posts/7#reply-r2');
    expect(notificationPath({ postId: 7, replyId: null, kind: 'approved' })).toBe('/posts/7');
  });

  it('a watcher’s notification reads as a reply in the post, a count once collapsed, or a new post (issue 62)', () => {
    const [n] = notificationsForWatchers(
      post,
      'r3',
      { author: 'Bob', authorEmail: bob.email },
      [ann.email, bob.email, 'cy@example.com'],
      bob,
      [{ ...notificationsForReply(post, { id: 'r3', author: 'Bob', authorEmail: bob.email }, null, bob)[0]! }],
    );
    // Ann was told "replied" already, Bob wrote it: only Cy hears "watching".
    expect(n).toMatchObject({ recipientEmail: 'cy@example.com', kind: 'watching', replyId: 'r3', actor: 'Bob' });
    expect(notificationTitle(n!)).toBe('Bob replied in “Panel fatigue”');
    expect(notificationTitle({ ...n!, count: 1_200 })).toBe('1,200 new replies in “Panel fatigue”');
    expect(notificationTitle({ ...n!, replyId: null })).toBe('Bob posted “Panel fatigue”');
    expect(notificationPath(n!)).toBe('/posts/7#reply-r3');
    expect(collapses(n!)).toBe(true);
    expect(collapses({ ...n!, replyId: null })).toBe(false);
    expect(collapses({ ...n!, kind: 'replied' })).toBe(false);
  });

  it('descriptions count in words', () => {
    expect(pendingDescription(3)).toBe('3 posts waiting for review');
    expect(pendingDescription(1)).toBe('1 post waiting for review');
    expect(pendingDescription(0)).toBe('No posts waiting for review');
    expect(pendingDescription(0, 0)).toBe('No posts waiting for review');
    expect(pendingDescription(3, 2)).toBe('3 posts and 2 flagged items waiting for review');
    expect(pendingDescription(1, 1)).toBe('1 post and 1 flagged item waiting for review');
    expect(pendingDescription(0, 1)).toBe('1 flagged item waiting for review');
    expect(pendingDescription(1_200, 0)).toBe('1,200 posts waiting for review');
    expect(unreadDescription(2)).toBe('2 unread notifications');
    expect(unreadDescription(0)).toBe('No unread notifications');
  });
});

describe('flags and reasons', () => {
  it('a member flags what others wrote', () => {
    expect(mayFlag({ authorEmail: ann.email }, bob)).toBe(true);
    expect(mayFlag({ authorEmail: ann.email }, ann)).toBe(false);
  });

  it('a flag needs a known reason, and words for "other"', () => {
    expect(validateFlag('spam', '')).toBeNull();
    expect(validateFlag('nonsense', '')?.message).toBe('Please choose why you are flagging this.');
    expect(validateFlag('other', '  ')?.message).toBe('Please say what is wrong with it.');
    expect(validateFlag('other', 'x'.repeat(501))?.title).toBe('Your words is too long');
  });

  it('a reason is optional and at most 500 characters', () => {
    expect(validateReason('')).toBeNull();
    expect(validateReason('x'.repeat(500))).toBeNull();
    expect(validateReason('x'.repeat(501))?.title).toBe('Reason is too long');
  });
});

describe('insights', () => {
  const now = Date.parse('2026-11-25T12:00:00Z'); // a Wednesday
  const hour = 3_600_000;

  it('weeks start on Monday (UTC)', () => {
    expect(dayOf(weekStart(now))).toBe('2026-11-23');
    expect(dayOf(weekStart(Date.parse('2026-11-23T00:00:00Z')))).toBe('2026-11-23');
    expect(dayOf(weekStart(Date.parse('2026-11-22T23:59:59Z')))).toBe('2026-11-16');
  });

  it('nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
  });

  it('counts posts per category and week, likes per week, review times and the queue', () => {
    const insights = computeInsights(
      {
        now,
        posts: [
          { category: 'Trends', status: 'approved', submittedAt: now - 2 * hour, reviewedAt: now - hour },
          { category: 'Trends', status: 'rejected', submittedAt: now - 10 * hour, reviewedAt: now - 6 * hour },
          { category: 'Qualitative', status: 'pending', submittedAt: now - 3 * 24 * hour, reviewedAt: null },
          { category: 'Qualitative', status: 'approved', submittedAt: null, reviewedAt: null },
        ],
        likesByDay: [
          { day: '2026-11-24', likes: 4 },
          { day: '2026-11-20', likes: 2 },
        ],
      },
      'device',
    );
    expect(insights.postsPerCategory.find((c) => c.category === 'Trends')).toEqual({ category: 'Trends', posts: 2, approved: 1 });
    expect(insights.postsPerCategory).toHaveLength(6);
    expect(insights.perWeek).toHaveLength(INSIGHT_WEEKS);
    expect(insights.perWeek.at(-1)).toEqual({ week: '2026-11-23', posts: 2, likes: 4 });
    expect(insights.perWeek.at(-2)).toEqual({ week: '2026-11-16', posts: 1, likes: 2 });
    expect(insights.reviewTime).toEqual({ reviewed: 2, medianMs: hour, p90Ms: 4 * hour });
    expect(insights.queue).toHaveLength(INSIGHT_DAYS);
    expect(insights.queue.at(-1)).toEqual({ day: '2026-11-25', pending: 1 });
    // Four days ago nothing waited; on the 22nd the pending post did.
    expect(insights.queue.find((d) => d.day === '2026-11-21')?.pending).toBe(0);
    expect(insights.queue.find((d) => d.day === '2026-11-22')?.pending).toBe(1);
  });
});

describe('a silence (issue 59, item 7)', () => {
  const NOW = Date.UTC(2026, 11, 9, 12);
  it('holds while it lasts, without an end until lifted, and ends at its date by itself', () => {
    expect(isSilencedAt({ silenced: true, silencedUntil: null }, NOW)).toBe(true);
    expect(isSilencedAt({ silenced: true }, NOW)).toBe(true);
    expect(isSilencedAt({ silenced: true, silencedUntil: NOW + 1 }, NOW)).toBe(true);
    expect(isSilencedAt({ silenced: true, silencedUntil: NOW }, NOW)).toBe(false);
    expect(isSilencedAt({ silenced: false, silencedUntil: NOW + 1 }, NOW)).toBe(false);
    expect(isSilencedAt(undefined, NOW)).toBe(false);
  });

  it('the banner says until when (in the reader’s format) and why', () => {
    expect(silenceMessage(NOW, 'Heated replies')).toBe(`${ERRORS.silenced.message} It ends ${formatDayTime(NOW)}. Reason: Heated replies`);
    expect(silenceMessage(null, null)).toBe(`${ERRORS.silenced.message} It lasts until the staff lift it.`);
  });
});
