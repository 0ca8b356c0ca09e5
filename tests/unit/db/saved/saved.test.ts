// Saved posts on a local-only and a connected device, without a server: the row written
// at once, the `save` operation queued (connected only), pulled saves with this device's outstanding
// ones on top, a refusal undone and told, and a live query that follows a save.
import { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { isSaved, savedPostIds, savedPosts, setSaved } from '../../../../src/db/saved/saved';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../../src/db/sync/apply-results';
import { nextBatch } from '../../../../src/db/ops/outbox';
import { markConnected, SYNC_META } from '../../../../src/db/ops/sync-meta';
import { refusalNotices } from '../../../../src/sync/engine';
import type { Op, OpResult, PullResponse, WireSaved } from '../../../../src/shared/protocol';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../../factories';
import { approvePost, createPost } from '../../../../src/db/posts/posts';
import { DEFAULT_ADMIN_EMAIL as ADMIN } from '../../../../src/shared/post-rules';
import { pullPage, wirePost } from '../../sync/fixtures';

const ME = 'member@example.com';
let clock = 1_800_000_000_000;
beforeEach(() => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());

const tick = () => (clock += 1_000);
const pull = (overrides: Partial<PullResponse>, owner = ME) => applyPullPage(pullPage(overrides), owner);
const saved = (postId: number, isSavedNow: boolean, seq: number, at = clock): WireSaved => ({ postId, saved: isSavedNow, at, seq });
const answer = async (results: (batch: Op[]) => OpResult[], cursor = 0) => {
  const batch = await nextBatch(ME, 100);
  return applyPushResults(batch, results(batch.map((entry) => entry.op)), cursor);
};

describe('saved posts on a local-only device', () => {
  it('saves and unsaves at once, newest saved first, without queuing anything', async () => {
    const [a, b, pending] = await storePosts(makePost({ id: 1 }), makePost({ id: 2 }), makePost({ id: 3, status: 'pending' }));
    signInAsMember();
    await setSaved(ME, a!.id, true);
    tick();
    await setSaved(ME, b!.id, true);
    expect(await savedPostIds(ME)).toEqual([2, 1]);
    expect((await savedPosts(ME)).map((post) => post.id)).toEqual([2, 1]);
    expect(await isSaved(ME, 1)).toBe(true);
    tick();
    await setSaved(ME, a!.id, false);
    expect(await savedPostIds(ME)).toEqual([2]);
    expect(await isSaved(ME, 1)).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    // Only a post on the forum can be saved; another member's list is their own.
    await expect(setSaved(ME, pending!.id, true)).rejects.toMatchObject({
      code: 'not_saveable',
      message: 'Only a post on the forum can be saved.',
    });
    // A post that is not here at all (the save rule the server follows too).
    await expect(setSaved(ME, 99, true)).rejects.toMatchObject({ code: 'not_found' });
    expect(await savedPostIds('other@example.com')).toEqual([]);
    await expect(setSaved('other@example.com', 2, true)).rejects.toMatchObject({ code: 'not_signed_in' });
  });

  it('lists only the saved posts still on the device', async () => {
    await storePosts(makePost({ id: 1 }), makePost({ id: 2 }));
    signInAsMember();
    await setSaved(ME, 1, true);
    await setSaved(ME, 2, true);
    await db.posts.delete(2);
    expect((await savedPosts(ME)).map((post) => post.id)).toEqual([1]);
  });

  it('a live query (any tab’s) follows a save', async () => {
    await storePosts(makePost({ id: 7 }));
    signInAsMember();
    const seen: number[][] = [];
    const followed = new Promise<void>((resolve) => {
      const subscription = liveQuery(() => savedPostIds(ME)).subscribe((ids) => {
        seen.push(ids);
        if (ids.length === 1) {
          resolve();
          queueMicrotask(() => subscription.unsubscribe());
        }
      });
    });
    await setSaved(ME, 7, true);
    await followed;
    expect(seen.at(-1)).toEqual([7]);
  });
});

describe('saved posts on a connected device', () => {
  beforeEach(async () => {
    await markConnected();
    signInAsMember();
    await pull({ posts: [wirePost(makePost({ id: 41, title: 'Kept' })), wirePost(makePost({ id: 42 }))] });
  });

  it('queues a save and an unsave', async () => {
    await setSaved(ME, 41, true);
    tick();
    await setSaved(ME, 41, false);
    expect((await db.outbox.orderBy('seq').toArray()).map((row) => [row.postId, row.email, row.op])).toEqual([
      [41, ME, { id: expect.any(String), type: 'save', postId: 41, saved: true }],
      [41, ME, { id: expect.any(String), type: 'save', postId: 41, saved: false }],
    ]);
    // Saving what is already saved queues nothing.
    await setSaved(ME, 41, false);
    expect(await db.outbox.count()).toBe(2);
  });

  it('applies pulled saves; an unsave takes the post off the list; another member’s pulls are theirs', async () => {
    await pull({ saved: [saved(41, true, 2, 10), saved(42, true, 3, 20)], cursor: 3 });
    expect(await savedPostIds(ME)).toEqual([42, 41]);
    await pull({ saved: [saved(42, false, 4, 30)], cursor: 4 });
    expect(await savedPostIds(ME)).toEqual([41]);
    // An older word changes nothing.
    await pull({ saved: [saved(42, true, 3, 20)], cursor: 5 });
    expect(await savedPostIds(ME)).toEqual([41]);
    // A page is stored only for the member the device holds (the switch comes first).
    await db.meta.put({ key: SYNC_META.owner, value: 'other@example.com' });
    await pull({ saved: [saved(42, true, 6, 40)], cursor: 6 }, 'other@example.com');
    expect(await savedPostIds(ME)).toEqual([41]);
    expect(await savedPostIds('other@example.com')).toEqual([42]);
  });

  it('keeps this device’s save over an older pulled word until the server has it', async () => {
    await setSaved(ME, 41, true);
    await pull({ saved: [saved(41, false, 2)], cursor: 2 });
    expect(await isSaved(ME, 41)).toBe(true);
    await answer((ops) => ops.map((op) => ({ id: op.id, status: 'applied' as const })), 5);
    expect(await isSaved(ME, 41)).toBe(true);
    await pull({ saved: [saved(41, true, 5)], cursor: 5 });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.saved.get([ME, 41])).toMatchObject({ saved: true, sync: { saved: true, seq: 5 } });
  });

  it('a refused save is undone and told with the server’s sentence', async () => {
    await pull({ saved: [saved(42, true, 2, 5)], cursor: 2 });
    await setSaved(ME, 41, true);
    tick();
    await setSaved(ME, 42, false);
    const refusals = await answer((ops) =>
      ops.map((op) => ({ id: op.id, status: 'refused' as const, code: 'not_saveable', reason: 'Only a post on the forum can be saved.' })),
    );
    expect(refusals.map((refusal) => [refusal.code, refusal.title])).toEqual([
      ['not_saveable', 'Kept'],
      ['not_saveable', expect.any(String)],
    ]);
    expect(refusalNotices(refusals)[0]).toEqual({ title: 'Not on the forum', description: 'Only a post on the forum can be saved.' });
    expect(await isSaved(ME, 41)).toBe(false);
    expect(await db.saved.get([ME, 41])).toBeUndefined();
    // The unsave refused: the server's word (saved) comes back.
    expect(await savedPostIds(ME)).toEqual([42]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a member who signs in sees only their own saved posts', async () => {
    await setSaved(ME, 41, true);
    signInAs('other@example.com', 'Other');
    expect(await savedPostIds('other@example.com')).toEqual([]);
    await expect(setSaved('member@example.com', 42, true)).rejects.toMatchObject({ code: 'not_signed_in' });
  });

  it('a saved post created here follows its post to the server’s id', async () => {
    signInAsAdmin();
    const post = await createPost({ title: 'Made offline', content: 'Approved before it reached the server.' });
    await approvePost(post.id);
    await setSaved(ADMIN, post.id, true);
    const batch = await nextBatch(ADMIN, 100);
    expect(batch.map((row) => row.op.type)).toEqual(['create']);
    await applyPushResults(batch, [{ id: batch[0]!.op.id, status: 'applied', postId: 900 }], 0);
    expect(await savedPostIds(ADMIN)).toEqual([900]);
    expect((await db.outbox.orderBy('seq').toArray()).map((row) => [row.op.type, row.postId])).toEqual([
      ['approve', 900],
      ['save', 900],
    ]);
  });
});
