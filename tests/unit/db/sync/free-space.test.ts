// Free up space and Download the whole forum: what stays (saved posts and their replies,
// the member's own, what the outbox still has to send, the newest 50, posts the server never had),
// "holds part", and the pull from the start that ends it; a member switch keeps the new member's
// saved posts' replies. Local-only: nothing is removed (the device is the forum's only copy).
import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { META_KEYS } from '../../../../src/db/contracts';
import { db } from '../../../../src/db/storage/schema';
import { downloadWholeForum, freeUpSpace, holdsPart, KEEP_NEWEST } from '../../../../src/db/sync/free-space';
import { setSaved, savedPosts } from '../../../../src/db/saved/saved';
import { likePost } from '../../../../src/db/likes/likes';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { markConnected, readCursor, writeLastSyncAt } from '../../../../src/db/ops/sync-meta';
import { onLocalChange } from '../../../../src/db/storage/changes';
import type { WireReply } from '../../../../src/shared/protocol';
import { makePost, signInAsMember, storePosts } from '../../factories';
import { pullPage, wirePost } from '../../sync/fixtures';

const ME = 'member@example.com';
const OTHER = 'other@example.com';
afterEach(() => vi.restoreAllMocks());

const reply = (id: string, postId: number, state: WireReply['state'] = 'visible'): WireReply => ({
  id,
  postId,
  author: 'Other',
  authorEmail: OTHER,
  authorRole: 'user',
  content: state === 'deleted' ? '' : 'A reply',
  quoteId: null,
  createdAt: 1,
  editedAt: null,
  state,
  authorId: '',
  seq: 2,
});
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** 100 approved posts by OTHER (ids 1..100), one by ME (id 101), each of 1..3 with a reply. */
async function connectedForum() {
  await markConnected();
  signInAsMember();
  const posts = Array.from({ length: 100 }, (_, i) => wirePost(makePost({ id: i + 1, authorEmail: OTHER, author: 'Other' })));
  posts.push(wirePost(makePost({ id: 101, authorEmail: ME })));
  await applyPullPage(pullPage({ posts, replies: [reply(uuid(1), 1), reply(uuid(2), 2), reply(uuid(3), 3)], cursor: 10 }), ME, 0);
  await writeLastSyncAt();
}

describe('free up space on a connected device', () => {
  it('keeps saved posts with their replies, the member’s own, the outbox’s and the newest 50; then holds part', async () => {
    await connectedForum();
    await storePosts(makePost({ id: 500, authorEmail: OTHER, status: 'approved' })); // a local-only row (no sync)
    await setSaved(ME, 1, true);
    await likePost(2); // in the outbox
    expect(await holdsPart()).toBe(false);
    const kinds: string[] = [];
    const stop = onLocalChange((kind) => kinds.push(kind));
    const { removed } = await freeUpSpace(ME);
    stop();
    expect(kinds).toEqual(['space-freed']);
    // The newest 50 approved (500, then 101..53, with 101 mine), 1 saved and 2 in the outbox stay.
    expect(removed).toBe(101 - (KEEP_NEWEST - 1) - 2);
    const left = (await db.posts.orderBy('id').primaryKeys()) as number[];
    expect(left).toEqual([1, 2, ...Array.from({ length: 49 }, (_, i) => 53 + i), 500]);
    expect((await db.replies.toArray()).map((row) => row.id).sort()).toEqual([uuid(1), uuid(2)]);
    expect((await savedPosts(ME)).map((post) => post.id)).toEqual([1]);
    expect(await holdsPart()).toBe(true);
    // Nothing more to free.
    expect(await freeUpSpace(ME)).toEqual({ removed: 0 });
  });

  it('download the whole forum pulls from the start; holds part ends when that pull has finished', async () => {
    await connectedForum();
    await freeUpSpace(ME);
    const kinds: string[] = [];
    const stop = onLocalChange((kind) => kinds.push(kind));
    await downloadWholeForum();
    stop();
    expect(kinds).toEqual(['space-freed']); // any local change starts a sync
    expect(await readCursor()).toBe(0);
    expect(await holdsPart()).toBe(true);
    // A page asked for before the cursor went back is stored, but leaves the cursor at 0.
    await applyPullPage(pullPage({ posts: [], cursor: 12, more: false }), ME, 10);
    expect(await readCursor()).toBe(0);
    expect(await holdsPart()).toBe(true);
    const all = Array.from({ length: 101 }, (_, i) => wirePost(makePost({ id: i + 1, authorEmail: i === 100 ? ME : OTHER })));
    await applyPullPage(pullPage({ posts: all.slice(0, 60), cursor: 6, more: true }), ME, 0);
    expect(await holdsPart()).toBe(true);
    await applyPullPage(pullPage({ posts: all.slice(60), cursor: 12 }), ME, 6);
    expect(await holdsPart()).toBe(false);
    expect(await readCursor()).toBe(12);
    expect(await db.posts.count()).toBe(101);
    // What came back is not "new".
    expect((await db.posts.get(10))!.arrivedAt).toBe(0);
  });

  it('holds part while a connected device’s first sync has not finished', async () => {
    await markConnected();
    expect(await holdsPart()).toBe(true);
    await writeLastSyncAt();
    expect(await holdsPart()).toBe(false);
  });

  it('holds part is live: a screen that asked during the first sync hears that it finished, and that space was freed', async () => {
    await markConnected();
    const seen: boolean[] = [];
    const watching = liveQuery(() => holdsPart()).subscribe((value) => seen.push(value));
    try {
      await expect.poll(() => seen).toEqual([true]);
      await writeLastSyncAt();
      await expect.poll(() => seen).toEqual([true, false]);
      await db.meta.put({ key: META_KEYS.holdsPart, value: 'freed' });
      await expect.poll(() => seen).toEqual([true, false, true]);
    } finally {
      watching.unsubscribe();
    }
  });

  it('a member switch keeps the new member’s saved posts’ replies (not a hidden one)', async () => {
    await connectedForum();
    await applyPullPage(pullPage({ replies: [reply(uuid(9), 1, 'hidden')], cursor: 11 }), ME, 10);
    await setSaved(ME, 1, true);
    // The device last synced for another member; this one signs in.
    await db.meta.put({ key: 'sync:owner', value: OTHER });
    expect(await switchMember({ email: ME, name: 'Test Member', role: 'user' })).toBe(true);
    expect((await db.replies.toArray()).map((row) => row.id)).toEqual([uuid(1)]);
  });

  it('a member switch drops what the previous member saved and had seen (theirs; their pull brings it back)', async () => {
    await connectedForum();
    await db.saved.put({ email: OTHER, postId: 2, saved: true, at: 1 });
    await db.seen.bulkPut([
      { email: OTHER, item: 'post:2' },
      { email: ME, item: 'post:3' },
    ]);
    await setSaved(ME, 1, true);
    await db.meta.put({ key: 'sync:owner', value: OTHER });
    expect(await switchMember({ email: ME, name: 'Test Member', role: 'user' })).toBe(true);
    expect((await db.saved.toArray()).map((row) => [row.email, row.postId])).toEqual([[ME, 1]]);
    expect((await db.seen.toArray()).map((row) => row.email)).toEqual([ME]);
  });
});

describe('free up space on a local-only device', () => {
  it('removes nothing and does not hold part', async () => {
    await storePosts(...Array.from({ length: 80 }, (_, i) => makePost({ id: i + 1, authorEmail: OTHER })));
    signInAsMember();
    expect(await freeUpSpace(ME)).toEqual({ removed: 0 });
    expect(await db.posts.count()).toBe(80);
    expect(await holdsPart()).toBe(false);
    await downloadWholeForum();
    expect(await holdsPart()).toBe(false);
  });
});
