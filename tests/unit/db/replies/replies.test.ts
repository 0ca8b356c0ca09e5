import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  countThread,
  createReply,
  deleteReply,
  editReply,
  getReplies,
  hideReply,
  listReplies,
  loadReplyDraft,
  recordView,
  REPLY_PAGE_SIZE,
  restoreReply,
  saveReplyDraft,
  threadIndex,
} from '../../../../src/db/replies/replies';
import { writeMirrorNow } from '../../../../src/db/mirror/legacy-mirror';
import { countVisibleReplies } from '../../../../src/db/replies/reply-counts';
import { db } from '../../../../src/db/storage/schema';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { ERRORS } from '../../../../src/shared/errors';
import { LIMITS } from '../../../../src/shared/post-rules';
import { validateReply } from '../../../../src/shared/validation';
import type { Post, Reply } from '../../../../src/db/types';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../../factories';

const POST = 1_700_000_100_000;
const OTHER_POST = 1_700_000_200_000;

// Each write reads Date.now(): a clock that moves one second per read keeps "oldest first" exact.
let clock = 1_800_000_000_000;
beforeEach(() => {
  vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1_000));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** An approved post by another member, and another one to tell threads apart. */
async function twoPosts(): Promise<void> {
  await storePosts(
    makePost({ id: POST, authorEmail: 'author@example.com', status: 'approved' }),
    makePost({ id: OTHER_POST, authorEmail: 'author@example.com', status: 'approved' }),
  );
}

const comments = async (postId = POST) => (await db.posts.get(postId))!.comments;
const mirrored = (postId = POST) =>
  (JSON.parse(localStorage.getItem('posts') ?? '[]') as Post[]).find((post) => post.id === postId)?.comments;

/** `count` replies by the signed-in member, "Reply 0" first. */
async function replies(count: number, postId = POST): Promise<Reply[]> {
  const written: Reply[] = [];
  for (let i = 0; i < count; i += 1) written.push(await createReply(postId, `Reply ${i}`));
  return written;
}

describe('a thread’s pages', () => {
  it('pages 45 replies 20 at a time, oldest first, and counts the thread', async () => {
    await twoPosts();
    signInAsMember();
    await replies(45);
    await replies(3, OTHER_POST);
    expect(REPLY_PAGE_SIZE).toBe(20);
    expect(await countThread(POST)).toBe(45);
    expect(await countThread(OTHER_POST)).toBe(3);
    const pages = [await listReplies(POST, 0), await listReplies(POST, 20), await listReplies(POST, 40), await listReplies(POST, 60)];
    expect(pages.map((page) => page.length)).toEqual([20, 20, 5, 0]);
    expect(pages.flat().map((reply) => reply.content)).toEqual(Array.from({ length: 45 }, (_, i) => `Reply ${i}`));
    expect(pages.flat().every((reply) => reply.postId === POST)).toBe(true);
    expect((await listReplies(POST, 10, 5)).map((reply) => reply.content)).toEqual([
      'Reply 10',
      'Reply 11',
      'Reply 12',
      'Reply 13',
      'Reply 14',
    ]);
  });

  it('keeps a hidden reply in its place and closes the gap a deleted one leaves', async () => {
    await twoPosts();
    signInAsMember();
    const written = await replies(25);
    await deleteReply(written[3]!.id);
    signInAsAdmin();
    await hideReply(written[5]!.id);
    expect(await countThread(POST)).toBe(24);
    const first = await listReplies(POST, 0);
    expect(first.map((reply) => reply.content).slice(2, 5)).toEqual(['Reply 2', 'Reply 4', 'Reply 5']);
    expect(first[4]).toMatchObject({ id: written[5]!.id, state: 'hidden' });
    expect((await listReplies(POST, 20)).map((reply) => reply.content)).toEqual(['Reply 21', 'Reply 22', 'Reply 23', 'Reply 24']);
  });

  it('tells where a reply stands in its thread: -1 once deleted or unknown', async () => {
    await twoPosts();
    signInAsMember();
    const written = await replies(5);
    const [other] = await replies(1, OTHER_POST);
    expect(await Promise.all(written.map((reply) => threadIndex(reply.id)))).toEqual([0, 1, 2, 3, 4]);
    expect(await threadIndex(other!.id)).toBe(0);
    await deleteReply(written[1]!.id);
    signInAsAdmin();
    await hideReply(written[2]!.id);
    expect(await Promise.all(written.map((reply) => threadIndex(reply.id)))).toEqual([0, -1, 1, 2, 3]);
    expect(await threadIndex('no-such-reply')).toBe(-1);
  });
});

describe('replies of the same millisecond', () => {
  it('stand in the thread in the order the pages show them', async () => {
    await twoPosts();
    const at = 1_800_000_000_000;
    const reply = (id: string, createdAt: number) => ({
      id,
      postId: POST,
      author: 'A',
      authorEmail: 'a@example.com',
      authorRole: 'user',
      content: `Reply ${id}`,
      quoteId: null,
      createdAt,
      editedAt: null,
      state: 'visible' as const,
      listed: 1 as const,
    });
    await db.replies.bulkAdd([reply('m', at), reply('z', at + 1), reply('b', at + 1), reply('k', at + 1), reply('a', at + 2)]);
    const shown = (await listReplies(POST, 0)).map((row) => row.id);
    expect(shown).toEqual(['m', 'b', 'k', 'z', 'a']);
    expect(await Promise.all(shown.map((id) => threadIndex(id)))).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('a post’s comments', () => {
  it('equals its visible replies after reply, hide, restore and delete, here and in the posts mirror', async () => {
    await twoPosts();
    await db.posts.update(POST, { comments: 0 });
    const steps: [string, number][] = [];
    const record = async (step: string) => {
      await writeMirrorNow();
      const count = await comments();
      expect(mirrored()).toBe(count);
      expect(await countVisibleReplies(POST)).toBe(count);
      steps.push([step, count]);
    };
    signInAsMember();
    const [first, second, third] = await replies(3);
    await record('three replies');
    signInAsAdmin();
    await hideReply(second!.id);
    await record('one hidden');
    await hideReply(second!.id); // hiding twice changes nothing
    await record('hidden again');
    await restoreReply(second!.id);
    await record('restored');
    signInAsMember();
    await editReply(third!.id, 'Edited');
    await record('edited');
    await deleteReply(first!.id);
    await record('one deleted');
    expect(steps).toEqual([
      ['three replies', 3],
      ['one hidden', 2],
      ['hidden again', 2],
      ['restored', 3],
      ['edited', 3],
      ['one deleted', 2],
    ]);
    expect(await comments(OTHER_POST)).toBe(0);
  });
});

describe('quotes', () => {
  it('keeps a quote of a reply of the same post and drops any other', async () => {
    await twoPosts();
    signInAsMember();
    const [quoted, gone] = await replies(2);
    const [elsewhere] = await replies(1, OTHER_POST);
    await deleteReply(gone!.id);
    expect((await createReply(POST, 'Same post', quoted!.id)).quoteId).toBe(quoted!.id);
    expect((await createReply(POST, 'Other post', elsewhere!.id)).quoteId).toBeNull();
    expect((await createReply(POST, 'Deleted one', gone!.id)).quoteId).toBeNull();
    expect((await createReply(POST, 'Unknown', 'no-such-reply')).quoteId).toBeNull();
    const stored = await listReplies(POST, 0);
    expect(stored.map((reply) => [reply.content, reply.quoteId])).toEqual([
      ['Reply 0', null],
      ['Same post', quoted!.id],
      ['Other post', null],
      ['Deleted one', null],
      ['Unknown', null],
    ]);
  });

  it('finds quoted replies by id, deleted ones included, skipping unknown ids', async () => {
    await twoPosts();
    signInAsMember();
    const [kept, gone] = await replies(2);
    await deleteReply(gone!.id);
    const found = await getReplies([gone!.id, 'no-such-reply', kept!.id]);
    expect(found.map((reply) => [reply.id, reply.state, reply.content])).toEqual([
      [gone!.id, 'deleted', ''],
      [kept!.id, 'visible', 'Reply 0'],
    ]);
  });
});

describe('the reply rules', () => {
  it('refuses an empty, too long or unstorable reply with the rule’s sentence, writing nothing', async () => {
    await twoPosts();
    signInAsMember();
    for (const text of ['   ', 'x'.repeat(LIMITS.reply + 1), 'Broken \u0000 paste', 'Half \uD800 pair']) {
      const problem = validateReply(text)!;
      expect(problem).not.toBeNull();
      await expect(createReply(POST, text)).rejects.toMatchObject({ code: 'invalid', title: problem.title, message: problem.message });
    }
    const [reply] = await replies(1);
    const problem = validateReply('')!;
    await expect(editReply(reply!.id, '')).rejects.toMatchObject({ code: 'invalid', message: problem.message });
    expect(await db.replies.count()).toBe(1);
    expect((await db.replies.get(reply!.id))!.content).toBe('Reply 0');
    expect(await comments()).toBe(1);
  });

  it('accepts a reply of exactly the limit, trimmed', async () => {
    await twoPosts();
    signInAsMember();
    const reply = await createReply(POST, `  ${'y'.repeat(LIMITS.reply)}  `);
    expect(reply.content).toHaveLength(LIMITS.reply);
  });

  it('opens replies only once a post is approved, and hides posts a member may not see', async () => {
    signInAsMember();
    await storePosts(
      makePost({ id: 1, authorEmail: 'member@example.com', status: 'pending' }),
      makePost({ id: 2, authorEmail: 'author@example.com', status: 'pending' }),
      makePost({ id: 3, authorEmail: 'member@example.com', status: 'rejected' }),
    );
    await expect(createReply(1, 'Mine, pending')).rejects.toMatchObject({ code: 'replies_closed', message: ERRORS.replies_closed.message });
    await expect(createReply(3, 'Mine, rejected')).rejects.toMatchObject({ code: 'replies_closed' });
    await expect(createReply(2, 'Theirs, pending')).rejects.toMatchObject({ code: 'not_found', message: ERRORS.not_found.message });
    await expect(createReply(99, 'Nowhere')).rejects.toMatchObject({ code: 'not_found' });
    signInAsAdmin();
    await expect(createReply(2, 'An admin sees it, but it is pending')).rejects.toMatchObject({ code: 'replies_closed' });
    expect(await db.replies.count()).toBe(0);
  });

  it('lets only its author edit or delete a reply, and only an admin hide or restore one', async () => {
    await twoPosts();
    signInAsMember();
    const [reply] = await replies(1);
    signInAs('other@example.com', 'Other');
    await expect(editReply(reply!.id, 'Not mine')).rejects.toMatchObject({
      code: 'not_your_reply',
      message: ERRORS.not_your_reply.message,
    });
    await expect(deleteReply(reply!.id)).rejects.toMatchObject({ code: 'not_your_reply' });
    await expect(hideReply(reply!.id)).rejects.toMatchObject({ code: 'admins_only', message: ERRORS.admins_only.message });
    await expect(restoreReply(reply!.id)).rejects.toMatchObject({ code: 'admins_only' });
    signInAsAdmin();
    await expect(editReply(reply!.id, 'An admin edits no one else’s reply')).rejects.toMatchObject({ code: 'not_your_reply' });
    signInAsMember();
    await expect(hideReply(reply!.id)).rejects.toMatchObject({ code: 'admins_only' });
    expect(await db.replies.get(reply!.id)).toMatchObject({ content: 'Reply 0', state: 'visible', editedAt: null });
  });

  it('lets its author edit a visible reply (trimmed, with the time), not a hidden or deleted one', async () => {
    await twoPosts();
    signInAsMember();
    const [edited, hidden, gone] = await replies(3);
    const after = await editReply(edited!.id, '  Second thoughts  ');
    expect(after).toMatchObject({ content: 'Second thoughts', state: 'visible' });
    expect(after.editedAt).toBeGreaterThan(after.createdAt);
    signInAsAdmin();
    await hideReply(hidden!.id);
    signInAsMember();
    await expect(editReply(hidden!.id, 'Try again')).rejects.toMatchObject({ code: 'reply_hidden', message: ERRORS.reply_hidden.message });
    await deleteReply(gone!.id);
    await expect(editReply(gone!.id, 'Back')).rejects.toMatchObject({ code: 'reply_not_found' });
    await expect(deleteReply(gone!.id)).rejects.toMatchObject({ code: 'reply_not_found' });
    expect(await db.replies.get(gone!.id)).toMatchObject({ state: 'deleted', content: '', listed: 0 });
    expect(await db.replies.get(hidden!.id)).toMatchObject({ state: 'hidden', content: 'Reply 1' });
  });
});

describe('views', () => {
  it('counts a member’s view of a post once, each member once, and none of a post they may not see', async () => {
    await twoPosts();
    await storePosts(makePost({ id: 3, authorEmail: 'author@example.com', status: 'pending', views: 0 }));
    const views = async (postId: number) => (await db.posts.get(postId))!.views;
    signInAsMember();
    expect(await recordView(POST)).toBe(true);
    expect(await recordView(POST)).toBe(false);
    expect(await views(POST)).toBe(1);
    expect(await recordView(3)).toBe(false);
    expect(await recordView(404)).toBe(false);
    expect(await views(3)).toBe(0);
    signInAs('other@example.com');
    expect(await recordView(POST)).toBe(true);
    expect(await views(POST)).toBe(2);
    signInAsAdmin();
    expect(await recordView(3)).toBe(true);
    expect(await views(3)).toBe(1);
    signInAsMember();
    expect(await recordView(POST)).toBe(false);
    expect(await views(POST)).toBe(2);
    expect(await db.viewed.count()).toBe(3);
  });
});

describe('a local-only device', () => {
  it('queues no operation for replies and views; a connected one does', async () => {
    await twoPosts();
    signInAsMember();
    const [first, second] = await replies(2);
    await editReply(first!.id, 'Edited');
    await deleteReply(first!.id);
    await recordView(POST);
    signInAsAdmin();
    await hideReply(second!.id);
    await restoreReply(second!.id);
    expect(await db.outbox.count()).toBe(0);

    await markConnected();
    signInAsMember();
    // A post only this device has (from before it met a server) keeps its replies and views here.
    await createReply(POST, 'Stays on this device');
    await recordView(OTHER_POST);
    expect(await db.outbox.count()).toBe(0);
    // A post the server sent: its replies go to the server.
    await db.posts.update(POST, { sync: { seq: 1, likes: 0, status: 'approved' } });
    const queued = await createReply(POST, 'Now connected');
    const rows = await db.outbox.toArray();
    expect(rows.map((row) => [row.op.type, row.replyId, row.postId])).toEqual([['reply', queued.id, POST]]);
  });
});

describe('reply drafts', () => {
  it('keeps a member’s half-written reply per post, and forgets an empty one', async () => {
    await saveReplyDraft('Member@Example.com', POST, 'Half a thought');
    expect(await loadReplyDraft('member@example.com', POST)).toBe('Half a thought');
    expect(await loadReplyDraft('member@example.com', OTHER_POST)).toBe('');
    expect(await loadReplyDraft('other@example.com', POST)).toBe('');
    await saveReplyDraft('member@example.com', POST, '   ');
    expect(await loadReplyDraft('member@example.com', POST)).toBe('');
  });
});
