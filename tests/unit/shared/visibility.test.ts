// Who sees what (src/shared/visibility.ts), the TypeScript side: the rules as the product states
// them, for every viewer; tests/server/shared/visibility.test.ts holds the SQL side to these on both engines.
import { describe, expect, it } from 'vitest';
import { POST_STATUSES, REPLY_STATES } from '../../../src/shared/post-rules';
import {
  isListedPost,
  isPublicPost,
  isPublicReply,
  likeOutcome,
  mayReadEmail,
  mayReadPrevious,
  mayReadReason,
  mayReadReply,
  maySeeFile,
  maySeeNotification,
  maySeePost,
  type Viewer,
} from '../../../src/shared/visibility';

const author: Viewer = { email: 'author@example.com', role: 'user' };
const other: Viewer = { email: 'other@example.com', role: 'user' };
const admin: Viewer = { email: 'admin@example.com', role: 'admin' };
const viewers = { nobody: null, author, other, admin };
const post = (status: string) => ({ status, authorEmail: 'author@example.com' });

describe('who sees what', () => {
  it('posts: approved to everyone, pending and rejected to their author and admins', () => {
    const table = Object.fromEntries(
      Object.entries(viewers).map(([name, viewer]) => [name, POST_STATUSES.filter((status) => maySeePost(post(status), viewer))]),
    );
    expect(table).toEqual({
      nobody: ['approved'],
      author: ['pending', 'approved', 'rejected'],
      other: ['approved'],
      admin: ['pending', 'approved', 'rejected'],
    });
    expect(POST_STATUSES.filter((status) => isPublicPost(post(status)))).toEqual(['approved']);
  });

  it('replies: visible to everyone, hidden to admins, deleted to nobody; public only when visible on an approved post', () => {
    const table = Object.fromEntries(
      Object.entries(viewers).map(([name, viewer]) => [name, REPLY_STATES.filter((state) => mayReadReply({ state }, viewer))]),
    );
    expect(table).toEqual({ nobody: ['visible'], author: ['visible'], other: ['visible'], admin: ['visible', 'hidden'] });
    expect(
      POST_STATUSES.flatMap((status) =>
        REPLY_STATES.filter((state) => isPublicReply({ state }, post(status))).map((state) => `${status}/${state}`),
      ),
    ).toEqual(['approved/visible']);
  });

  it('the replaced text to admins; a reason and an email to the author and admins', () => {
    expect(Object.values(viewers).map(mayReadPrevious)).toEqual([false, false, false, true]);
    expect(Object.values(viewers).map((viewer) => mayReadReason(post('rejected'), viewer))).toEqual([false, true, false, true]);
    expect(Object.values(viewers).map((viewer) => mayReadEmail('author@example.com', viewer))).toEqual([false, true, false, true]);
  });

  it('files: a pending post’s file to its author and admins; a hidden reply’s to admins; an upload to its uploader', () => {
    const onPending = { uploadedByViewer: false, posts: [post('pending')], replies: [] };
    const onHidden = { uploadedByViewer: false, posts: [], replies: [{ reply: { state: 'hidden' }, post: post('approved') }] };
    expect(Object.values(viewers).map((viewer) => maySeeFile(onPending, viewer))).toEqual([false, true, false, true]);
    expect(Object.values(viewers).map((viewer) => maySeeFile(onHidden, viewer))).toEqual([false, false, false, true]);
    expect(maySeeFile({ uploadedByViewer: true, posts: [], replies: [] }, other)).toBe(true);
  });

  it('private categories: admins and members of one of its groups, the author too only while in one; never what everyone sees', () => {
    const secret = (status: string) => ({ ...post(status), seeGroups: ['g-team', 'g-lead'] });
    const inTeam: Viewer = { email: 'in@example.com', role: 'user', groups: ['g-other', 'g-lead'] };
    const authorIn: Viewer = { ...author!, groups: ['g-team'] };
    const authorOut: Viewer = { ...author!, groups: ['g-other'] };
    const people = { nobody: null, other, inTeam, authorIn, authorOut, admin };
    const table = Object.fromEntries(
      Object.entries(people).map(([name, viewer]) => [name, POST_STATUSES.filter((status) => maySeePost(secret(status), viewer))]),
    );
    expect(table).toEqual({
      nobody: [],
      other: [],
      inTeam: ['approved'],
      authorIn: [...POST_STATUSES],
      authorOut: [],
      admin: [...POST_STATUSES],
    });
    expect(isPublicPost(secret('approved'))).toBe(false);
    expect(isPublicPost({ ...post('approved'), seeGroups: null })).toBe(true);
    expect(isListedPost(secret('approved'), inTeam)).toBe(true);
    expect(isListedPost(secret('pending'), authorIn)).toBe(false);
    expect(likeOutcome(secret('approved'), other)).toBe('not_found');
    expect(likeOutcome(secret('approved'), inTeam)).toBe('ok');
    expect(likeOutcome(secret('pending'), authorOut)).toBe('not_found');
  });

  it('likes: on an approved post; a visible unapproved one is not_approved, an unseen or missing one not_found', () => {
    expect(likeOutcome(post('approved'), other)).toBe('ok');
    expect(likeOutcome(post('pending'), author)).toBe('not_approved');
    expect(likeOutcome(post('pending'), other)).toBe('not_found');
    expect(likeOutcome(undefined, admin)).toBe('not_found');
  });

  it('notifications: while the post is seen and its reply read; a "your reply was hidden" notice checks the post only', () => {
    const hidden = { state: 'hidden' };
    expect(maySeeNotification({ kind: 'replied', replyId: 'r' }, { post: post('approved'), reply: hidden }, other)).toBe(false);
    expect(maySeeNotification({ kind: 'replyHidden', replyId: 'r' }, { post: post('approved'), reply: hidden }, other)).toBe(true);
    expect(maySeeNotification({ kind: 'approved', replyId: null }, { post: undefined, reply: undefined }, author)).toBe(false);
    expect(maySeeNotification({ kind: 'approved', replyId: null }, { post: post('rejected'), reply: undefined }, author)).toBe(true);
  });
});
