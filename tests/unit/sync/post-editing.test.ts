// Editing and deleting posts on a connected device, without a server: the operations they queue,
// held deletions, the overlay of an outstanding edit, the server's answers (acknowledged, refused)
// and pulled tombstones, applied as the engine applies them (the server's side is tested with it).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deletePost, editPost, loadEditDraft, undoDeletion } from '../../../src/db/posts/editing';
import { createPost } from '../../../src/db/posts/posts';
import { likePost } from '../../../src/db/likes/likes';
import { deleteReply, recordView } from '../../../src/db/replies/replies';
import { draftMetaKey } from '../../../src/db/contracts';
import { db } from '../../../src/db/storage/schema';
import { listUndoEntries, UNDO_GRACE_MS } from '../../../src/db/ops/undo';
import { applyPullPage } from '../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../src/db/sync/apply-results';
import { countWaiting, nextBatch, nextHoldEnd } from '../../../src/db/ops/outbox';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { readStoredSession } from '../../../src/db/members/session';
import { SyncEngine } from '../../../src/sync/engine';
import type { SyncApi } from '../../../src/sync/api';
import { UNDO_WINDOW_MS } from '../../../src/shared/post-rules';
import type { Op, OpResult, PullResponse, WirePost, WireReply } from '../../../src/shared/protocol';
import { pullPage, wirePost } from './fixtures';
import { makePost, signInAsMember } from '../factories';

const AUTHOR = 'member@example.com';
const ID = 41;
const EDIT = { title: 'Revised title', content: 'Revised content.', category: 'Trends' };

let clock = 1_800_000_000_000;
beforeEach(async () => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
  await markConnected();
  signInAsMember();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const wire = (overrides: Partial<WirePost> = {}): WirePost =>
  wirePost(makePost({ id: ID, authorEmail: AUTHOR, status: 'approved', title: 'Server title', content: 'Server content.' }), overrides);

const wireReply = (overrides: Partial<WireReply> = {}): WireReply => ({
  id: '00000000-0000-4000-8000-000000000001',
  postId: ID,
  author: 'Other',
  authorEmail: 'other@example.com',
  authorRole: 'user',
  content: 'A reply.',
  quoteId: null,
  createdAt: 1,
  editedAt: null,
  state: 'visible',
  authorId: '',
  seq: 1,
  ...overrides,
});

const page = pullPage;
const pull = (overrides: Partial<PullResponse>) => applyPullPage(page(overrides), AUTHOR);
const row = () => db.posts.get(ID);
const queued = async () => (await db.outbox.orderBy('seq').toArray()).map((entry) => entry.op.type);
const answer = async (results: (batch: Op[]) => OpResult[], cursor = 0) => {
  const batch = await nextBatch(AUTHOR, 100);
  return applyPushResults(batch, results(batch.map((entry) => entry.op)), cursor);
};

/**
 * An engine over a server that applies every push and pulls the deletion's tombstone once it was
 * sent; `beforePull` runs as each pull starts. Its timers are recorded, never run by themselves.
 */
function deletionEngine(beforePull: () => void = () => undefined) {
  const pushed: Op[][] = [];
  const api: SyncApi = {
    health: async () => true,
    signIn: async () => ({ email: AUTHOR, name: 'Test Member', role: 'user' }),
    currentUser: async () => ({ email: AUTHOR, name: 'Test Member', role: 'user' }),
    signOut: async () => undefined,
    push: async (ops) => {
      pushed.push([...ops]);
      return { results: ops.map((op) => ({ id: op.id, status: 'applied' as const })), cursor: 5 };
    },
    pull: async () => {
      beforePull();
      return page({ cursor: 5, removed: pushed.flat().some((op) => op.type === 'deletePost') ? [{ id: ID, seq: 5 }] : [] });
    },
  };
  const timers: { callback: () => void; ms: number }[] = [];
  const engine = new SyncEngine({
    api,
    session: () => readStoredSession() ?? null,
    isOnline: () => true,
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: () => undefined,
  });
  return { engine, pushed, timers };
}

describe('a held deletion', () => {
  it('waits out its Undo window (and grace) before nextBatch gives it; it counts as waiting; the post’s other operations go with the post', async () => {
    await pull({ posts: [wire()] });
    await likePost(ID);
    await recordView(ID);
    const undo = await deletePost(ID);
    expect(await queued()).toEqual(['deletePost']);
    const held = (await db.outbox.toArray())[0]!;
    expect(held).toMatchObject({ postId: ID, holdUntil: undo.until + UNDO_GRACE_MS, undoToken: undo.token });
    expect(await nextBatch(AUTHOR, 100)).toEqual([]);
    expect(await countWaiting(AUTHOR)).toBe(1);
    expect(await nextHoldEnd(AUTHOR)).toBe(held.holdUntil);
    expect((await nextBatch(AUTHOR, 100, held.holdUntil)).map((entry) => entry.op.type)).toEqual(['deletePost']);
    // Undo: the deletion never leaves, the like and the view are queued again, as they were.
    await undoDeletion(undo);
    expect(await queued()).toEqual(['like', 'view']);
    expect(await row()).toMatchObject({ likes: 1, views: 1 });
  });

  it('once its hold is over, Undo is too late (the engine may be sending it)', async () => {
    await pull({ posts: [wire()] });
    const undo = await deletePost(ID);
    clock = undo.until + UNDO_GRACE_MS;
    await expect(undoDeletion(undo)).rejects.toMatchObject({ code: 'too_late_to_undo' });
    expect(await queued()).toEqual(['deletePost']);
  });

  it('the engine sends it when its hold ends, by a timer of its own', async () => {
    await pull({ posts: [wire()] });
    const { engine, pushed, timers } = deletionEngine();
    const undo = await deletePost(ID);
    await engine.sync();
    expect(pushed).toEqual([]);
    expect(timers.map((timer) => timer.ms)).toEqual([UNDO_WINDOW_MS + UNDO_GRACE_MS]);
    clock = undo.until + UNDO_GRACE_MS;
    timers[0]!.callback();
    await engine.sync();
    expect(pushed.flat().map((op) => op.type)).toEqual(['deletePost']);
    expect(await db.outbox.count()).toBe(0);
    expect(await listUndoEntries()).toEqual([]);
    engine.stop();
  });

  it('a hold that ends while the cycle pulls: the next cycle starts at once and sends it (the network back just as the window ended)', async () => {
    await pull({ posts: [wire()] });
    let holdEnd = 0;
    // The push finds the deletion held; its hold ends while the pull is under way.
    const { engine, pushed, timers } = deletionEngine(() => (clock = Math.max(clock, holdEnd)));
    const undo = await deletePost(ID);
    holdEnd = undo.until + UNDO_GRACE_MS;
    clock = holdEnd - 200;
    await engine.sync();
    expect(pushed).toEqual([]);
    expect(await countWaiting(AUTHOR)).toBe(1);
    expect(timers.map((timer) => timer.ms)).toEqual([0]);
    timers[0]!.callback();
    await engine.sync();
    expect(pushed.flat().map((op) => op.type)).toEqual(['deletePost']);
    expect(await db.outbox.count()).toBe(0);
    engine.stop();
  });

  it('a post whose create the server has not answered: both go, nothing is ever sent; Undo queues the create again', async () => {
    const post = await createPost({ title: 'Offline', content: 'Written offline.', category: 'Trends' });
    await editPost(post.id, EDIT);
    const before = await db.outbox.toArray();
    const undo = await deletePost(post.id);
    expect(await db.outbox.count()).toBe(0);
    expect(await countWaiting(AUTHOR)).toBe(0);
    await undoDeletion(undo);
    expect(await db.outbox.toArray()).toEqual(before);
  });

  it('a create already on its way when its post was deleted: the server’s post is deleted too, after the window', async () => {
    const post = await createPost({ title: 'Offline', content: 'Written offline.', category: 'Trends' });
    const batch = await nextBatch(AUTHOR, 100);
    const undo = await deletePost(post.id);
    await applyPushResults(batch, [{ id: batch[0]!.op.id, status: 'applied', postId: 77 }], 3);
    const rows = await db.outbox.toArray();
    expect(rows).toMatchObject([{ postId: 77, op: { type: 'deletePost', postId: 77 }, holdUntil: undo.until + UNDO_GRACE_MS }]);
    expect(await db.posts.get(77)).toBeUndefined();
    // Undo within the window puts back the server's post (its create was answered): nothing to send.
    await undoDeletion(undo);
    expect(await db.posts.get(77)).toMatchObject({ title: 'Offline', sync: { status: 'pending' } });
    expect(await db.posts.get(post.id)).toBeUndefined();
    expect(await queued()).toEqual([]);
  });
});

describe('an edit on a connected device', () => {
  it('queues editPost over the status the author saw and keeps the server’s text aside while it is outstanding', async () => {
    await pull({ posts: [wire()] });
    await editPost(ID, EDIT);
    expect((await db.outbox.toArray())[0]!.op).toMatchObject({ type: 'editPost', postId: ID, post: EDIT, base: 'approved' });
    expect(await row()).toMatchObject({ title: 'Revised title', editedAt: clock, sync: { fields: { title: 'Server title' } } });
  });

  it('stays on top of a newer server version (a like meanwhile), then gives way to the server’s answer', async () => {
    await pull({ posts: [wire()] });
    const editedAt = clock;
    await editPost(ID, EDIT);
    clock += 1_000;
    await pull({ posts: [wire({ likes: 5, seq: 2 })], cursor: 2 });
    expect(await row()).toMatchObject({
      title: 'Revised title',
      content: 'Revised content.',
      category: 'Trends',
      likes: 5,
      status: 'approved',
      editedAt,
      previous: { title: 'Server title', content: 'Server content.' },
      sync: { seq: 2, likes: 5, fields: { title: 'Server title' } },
    });
    await answer((ops) => [{ id: ops[0]!.id, status: 'applied', post: wire({ ...EDIT, likes: 5, editedAt: 7, seq: 3 }) }]);
    const settled = (await row())!;
    expect(settled).toMatchObject({ title: 'Revised title', editedAt: 7, likes: 5, previous: null });
    expect(settled.sync?.fields).toBeUndefined();
    // Nothing left to send; the edit leaves the outbox with the pull that holds it.
    expect(await countWaiting()).toBe(0);
    await pull({ posts: [], cursor: 3 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('refused (edit_conflict: reviewed meanwhile): the server’s version comes back and the author’s text is kept as the edit draft', async () => {
    await pull({ posts: [wire({ status: 'rejected' })] });
    await editPost(ID, { ...EDIT, tags: ['panels'] });
    expect(await row()).toMatchObject({ status: 'pending', resubmitted: true });
    // An admin approved it meanwhile: the edit no longer applies over it (the server will refuse it).
    await pull({ posts: [wire({ status: 'approved', seq: 2 })], cursor: 2 });
    expect(await row()).toMatchObject({ status: 'approved', title: 'Server title', resubmitted: false });
    const refusals = await answer((ops) => [{ id: ops[0]!.id, status: 'refused', code: 'edit_conflict', reason: 'Reviewed meanwhile.' }]);
    expect(refusals).toMatchObject([{ code: 'edit_conflict' }]);
    const restored = (await row())!;
    expect(restored).toMatchObject({ title: 'Server title', content: 'Server content.', status: 'approved' });
    expect(restored.sync?.fields).toBeUndefined();
    expect(await loadEditDraft(AUTHOR, ID)).toEqual({ ...EDIT, tags: ['panels'] });
    expect(await db.outbox.count()).toBe(0);
  });

  it('of a post whose create is still queued: the create carries the new text, and the edit follows it', async () => {
    const post = await createPost({ title: 'Offline', content: 'Written offline.', category: 'Trends' });
    await editPost(post.id, EDIT);
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((entry) => entry.op)).toMatchObject([
      { type: 'create', post: { ...EDIT, tags: [] } },
      { type: 'editPost', postId: post.id, post: EDIT, base: 'pending' },
    ]);
  });

  it('of a post from before this device met a server queues nothing (it lives here only)', async () => {
    await db.posts.add(makePost({ id: ID, authorEmail: AUTHOR }));
    await editPost(ID, EDIT);
    await deletePost(ID);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('the server’s answers to a deletion', () => {
  it('refused (not_your_post): everything comes back, its queued operations too; not_found: nothing to restore', async () => {
    await pull({ posts: [wire()], replies: [wireReply()] });
    await likePost(ID);
    const before = await row();
    const undo = await deletePost(ID);
    clock = undo.until + UNDO_GRACE_MS;
    await answer((ops) => [{ id: ops[0]!.id, status: 'refused', code: 'not_your_post', reason: 'No.' }]);
    expect({ ...(await row()), rev: 0 }).toEqual({ ...before, rev: 0 });
    expect(await db.replies.count()).toBe(1);
    expect(await queued()).toEqual(['like']);
    expect(await listUndoEntries()).toEqual([]);

    await db.outbox.clear();
    await deletePost(ID);
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS;
    await answer((ops) => [{ id: ops[0]!.id, status: 'refused', code: 'not_found', reason: 'Gone.' }]);
    expect(await row()).toBeUndefined();
    expect(await listUndoEntries()).toEqual([]);
  });

  it('a pull never brings back a post deleted here while its deletion is outstanding; Undo puts back the newest version', async () => {
    await pull({ posts: [wire()], replies: [wireReply()] });
    const undo = await deletePost(ID);
    const later = wireReply({ id: '00000000-0000-4000-8000-000000000002', content: 'Written during the window.', createdAt: 2, seq: 2 });
    await pull({ posts: [wire({ likes: 9, seq: 2 })], replies: [wireReply({ content: 'Edited reply.', seq: 2 }), later], cursor: 2 });
    expect(await row()).toBeUndefined();
    await undoDeletion(undo);
    expect(await row()).toMatchObject({ likes: 9, sync: { seq: 2 }, comments: 2 });
    // The replies pulled while the deletion waited are there, newest text included (the cursor has passed them).
    expect((await db.replies.toArray()).sort((a, b) => a.createdAt - b.createdAt).map((reply) => reply.content)).toEqual([
      'Edited reply.',
      'Written during the window.',
    ]);
  });

  it('a reply hidden by an admin while its deletion waited stays hidden after Undo', async () => {
    await pull({ posts: [wire()], replies: [wireReply({ authorEmail: AUTHOR })] });
    const undo = await deleteReply(wireReply().id);
    await pull({ replies: [wireReply({ authorEmail: AUTHOR, state: 'hidden', content: '', seq: 2 })], cursor: 2 });
    await undoDeletion(undo);
    expect(await db.replies.get(wireReply().id)).toMatchObject({ state: 'hidden', listed: 1 });
    expect((await row())?.comments).toBe(0);
  });

  it('an edit refused because the post is gone becomes the New Post draft (there is no post to edit)', async () => {
    await pull({ posts: [wire()] });
    await editPost(ID, EDIT);
    await answer((ops) => [{ id: ops[0]!.id, status: 'refused', code: 'not_found', reason: 'Gone.' }]);
    expect(await db.meta.get(draftMetaKey(AUTHOR))).toMatchObject({ value: { title: EDIT.title, content: EDIT.content } });
    expect(await loadEditDraft(AUTHOR, ID)).toBeNull();
  });

  it('a create a push already took stays queued when its post is deleted, so a lost answer cannot bring the post back', async () => {
    const post = await createPost({ title: 'Sent', content: 'On its way.', category: 'Trends' });
    const [taken] = await nextBatch(AUTHOR, 100);
    expect(taken?.sentAt).toBe(clock);
    await deletePost(post.id);
    expect(await queued()).toEqual(['create', 'deletePost']);
    expect(await nextBatch(AUTHOR, 100)).toMatchObject([{ op: { type: 'create' } }]);
    // A create never taken by a push goes with its post: nothing is ever sent.
    await db.outbox.clear();
    const unsent = await createPost({ title: 'Unsent', content: 'Never left.', category: 'Trends' });
    await deletePost(unsent.id);
    expect(await queued()).toEqual([]);
  });

  it('acknowledged: it stays deleted until the pull brings its tombstone', async () => {
    await pull({ posts: [wire()] });
    const undo = await deletePost(ID);
    clock = undo.until + UNDO_GRACE_MS;
    await answer((ops) => [{ id: ops[0]!.id, status: 'applied' }], 3);
    expect(await listUndoEntries()).toEqual([]);
    await pull({ posts: [wire({ likes: 2, seq: 2 })], cursor: 2 });
    expect(await row()).toBeUndefined();
    await pull({ removed: [{ id: ID, seq: 3 }], cursor: 3 });
    expect(await db.outbox.count()).toBe(0);
    expect(await row()).toBeUndefined();
  });
});

describe('tombstones in a pull', () => {
  it('remove the post, its replies, views and queued operations in the page’s transaction', async () => {
    await pull({ posts: [wire(), wire({ id: 42, seq: 1 })], replies: [wireReply()] });
    await recordView(ID);
    await likePost(ID);
    const { changed } = await pull({ removed: [{ id: ID, seq: 2 }], cursor: 2 });
    expect(changed).toBeGreaterThan(0);
    expect(await row()).toBeUndefined();
    expect(await db.replies.count()).toBe(0);
    expect(await db.viewed.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.posts.get(42)).toBeDefined();
  });

  it('end a deletion of this device still held (someone deleted it first): Undo is then too late', async () => {
    await pull({ posts: [wire()] });
    const undo = await deletePost(ID);
    await pull({ removed: [{ id: ID, seq: 2 }], cursor: 2 });
    expect(await db.outbox.count()).toBe(0);
    await expect(undoDeletion(undo)).rejects.toMatchObject({ code: 'too_late_to_undo' });
  });

  it('leave alone a post of this device only that stands on the same id', async () => {
    await db.posts.add(makePost({ id: ID, authorEmail: AUTHOR }));
    await pull({ removed: [{ id: ID, seq: 2 }], cursor: 2 });
    expect(await row()).toBeDefined();
  });
});
