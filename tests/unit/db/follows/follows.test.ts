// Following on the device (issue 62): levels and read positions through the operations (local-only
// and connected), "N new" kept right by every write of replies or positions, readPost coalesced in
// the outbox, and pulled levels and positions with this device's outstanding operations on top.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, type ReplyRow } from '../../../../src/db/storage/schema';
import {
  autoWatchOf,
  followLevelOf,
  followsOf,
  setAutoWatchPreference,
  setFollowLevel,
  topicFollowsOf,
} from '../../../../src/db/follows/follows';
import { markRead, readPositionOf, unreadCounts } from '../../../../src/db/follows/reads';
import { createReply, deleteReply, editReply, hideReply } from '../../../../src/db/replies/replies';
import { createPost } from '../../../../src/db/posts/posts';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../../src/db/sync/apply-results';
import { nextBatch } from '../../../../src/db/ops/outbox';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import type { Op, OpResult, PullResponse, WireReply } from '../../../../src/shared/protocol';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts, synced } from '../../factories';
import { pullPage } from '../../sync/fixtures';
import { switchMember } from '../../../../src/db/sync/member-switch';

const ME = 'member@example.com';
const OTHER = 'other@example.com';
let clock = 1_800_000_000_000;
beforeEach(() => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());
const tick = () => (clock += 1_000);
const pull = (overrides: Partial<PullResponse>, owner = ME) => applyPullPage(pullPage(overrides), owner);
const answer = async (results: (batch: Op[]) => OpResult[], cursor = 0) => {
  const batch = await nextBatch(ME, 100);
  return applyPushResults(batch, results(batch.map((entry) => entry.op)), cursor);
};

/** Writes replies as the app's writers do: in a transaction that holds `reads` too. */
const store = (write: () => Promise<unknown>) => db.transaction('rw', [db.replies, db.reads], write);

/** A reply stored as if written earlier (by `author`, at `createdAt`). */
const reply = (id: string, postId: number, createdAt: number, author = OTHER, state: ReplyRow['state'] = 'visible'): ReplyRow => ({
  id,
  postId,
  author: 'Someone',
  authorEmail: author,
  authorRole: 'user',
  content: 'A thought.',
  quoteId: null,
  createdAt,
  editedAt: null,
  state,
  listed: state === 'deleted' ? 0 : 1,
});
const wireReply = (row: ReplyRow, seq: number): WireReply => {
  const { listed: _listed, ...fields } = row;
  return { ...fields, seq } as WireReply;
};

describe('levels on a local-only device', () => {
  it('sets, reads and lists levels, without queuing anything', async () => {
    const [post] = await storePosts(makePost());
    signInAsMember();
    await setFollowLevel('post', String(post!.id), 'watching');
    await setFollowLevel('category', 'Quantitative', 'muted');
    await setFollowLevel('tag', ' Options ', 'watching');
    await setFollowLevel('tag', 'macro', 'normal');
    expect(await followLevelOf(ME, 'post', String(post!.id))).toBe('watching');
    expect(await followLevelOf(ME, 'tag', 'options')).toBe('watching');
    expect((await topicFollowsOf(ME)).map((row) => `${row.kind}:${row.target}:${row.level}`).sort()).toEqual([
      'category:Quantitative:muted',
      'tag:options:watching',
    ]);
    expect(await followsOf(ME)).toHaveLength(4);
    expect(await followsOf(OTHER)).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    // A post that is not here cannot be followed; neither can a category nobody may see.
    await expect(setFollowLevel('post', '99', 'watching')).rejects.toMatchObject({ code: 'not_found' });
    await expect(setFollowLevel('post', 'abc', 'watching')).rejects.toMatchObject({ code: 'invalid' });
  });

  it('writing a post or replying makes its author watch it and read it, unless they turned that off', async () => {
    signInAsMember();
    const post = await createPost({ title: 'Sampling', content: 'How do you sample?', category: 'Quantitative' });
    expect(await followLevelOf(ME, 'post', String(post.id))).toBe('watching');
    expect(await readPositionOf(ME, post.id)).toBe(0);
    await setAutoWatchPreference(false);
    expect(await autoWatchOf(ME)).toBe(false);
    const [other] = await storePosts(makePost({ authorEmail: OTHER }));
    tick();
    await createReply(other!.id, 'A reply.');
    expect(await followLevelOf(ME, 'post', String(other!.id))).toBeUndefined();
    expect(await readPositionOf(ME, other!.id)).toBe(clock);
  });
});

describe('"N new": the count kept by every write', () => {
  it('counts visible replies by others after the position, through replies written, edited, hidden, deleted and read', async () => {
    const [post] = await storePosts(makePost({ authorEmail: OTHER }));
    const id = post!.id;
    await store(() => db.replies.bulkAdd([reply('a', id, clock - 3_000), reply('b', id, clock - 2_000), reply('c', id, clock - 1_000)]));
    signInAsMember();
    // Never read: no count.
    expect(await unreadCounts(ME)).toEqual(new Map());
    await markRead(id, clock - 3_000);
    expect(await unreadCounts(ME)).toEqual(new Map([[id, 2]]));
    // Another member's reply stored (as a pull or an import does), and one of the member's own.
    await store(() => db.replies.put(reply('d', id, clock + 1, OTHER)));
    await store(() => db.replies.put(reply('e', id, clock + 2, ME)));
    expect(await unreadCounts(ME)).toEqual(new Map([[id, 3]]));
    // The member's own reply moves their position to it.
    tick();
    await createReply(id, 'Mine.');
    expect(await unreadCounts(ME)).toEqual(new Map());
    await store(() => db.replies.put(reply('f', id, clock + 10)));
    expect(await unreadCounts(ME)).toEqual(new Map([[id, 1]]));
    // Hidden (an admin's operation) and deleted: no longer counted.
    signInAsAdmin();
    await hideReply('f');
    signInAsMember();
    expect(await unreadCounts(ME)).toEqual(new Map());
    await store(() => db.replies.put(reply('g', id, clock + 20)));
    expect((await unreadCounts(ME)).get(id)).toBe(1);
    await store(() => db.replies.delete('g'));
    expect(await unreadCounts(ME)).toEqual(new Map());
    // Positions never go back.
    await markRead(id, 5);
    expect(await readPositionOf(ME, id)).toBe(clock);
    // The post removed takes its replies with it: nothing left to count.
    await store(() => db.replies.put(reply('h', id, clock + 30)));
    expect((await unreadCounts(ME)).get(id)).toBe(1);
    await store(() => db.replies.where('[postId+state]').between([id, ''], [id, '\uffff']).delete());
    expect(await unreadCounts(ME)).toEqual(new Map());
  });

  it('the counts the cards look up: only posts with something new, and only the member’s own', async () => {
    const [first, second, third] = await storePosts(
      makePost({ authorEmail: OTHER }),
      makePost({ authorEmail: OTHER }),
      makePost({ authorEmail: OTHER }),
    );
    await store(() =>
      db.replies.bulkAdd([
        reply('a', first!.id, clock - 2_000),
        reply('b', second!.id, clock - 2_000),
        reply('c', second!.id, clock - 1_000),
      ]),
    );
    signInAsMember();
    await markRead(first!.id, clock - 3_000);
    await markRead(second!.id, clock - 3_000);
    await markRead(third!.id, 0);
    expect(await unreadCounts(ME)).toEqual(
      new Map([
        [first!.id, 1],
        [second!.id, 2],
      ]),
    );
    // A post with nothing new (third) is left out, and another member has none.
    expect(await unreadCounts(OTHER)).toEqual(new Map());
  });

  it('counts per member: one member reading does not read for another', async () => {
    const [post] = await storePosts(makePost({ authorEmail: 'third@example.com' }));
    await store(() =>
      db.reads.bulkPut([
        { email: ME, postId: post!.id, readTo: 0, unread: 0 },
        { email: OTHER, postId: post!.id, readTo: 0, unread: 0 },
      ]),
    );
    await store(() => db.replies.bulkPut([reply('x', post!.id, clock, OTHER), reply('y', post!.id, clock + 1, ME)]));
    expect(await unreadCounts(ME)).toEqual(new Map([[post!.id, 1]]));
    expect(await unreadCounts(OTHER)).toEqual(new Map([[post!.id, 1]]));
  });

  it('edits of a reply keep the count', async () => {
    const [post] = await storePosts(makePost({ authorEmail: OTHER }));
    signInAsMember();
    await markRead(post!.id, 0);
    signInAs(OTHER);
    await createReply(post!.id, 'First.');
    const mine = (await db.replies.toArray())[0]!;
    await editReply(mine.id, 'First, edited.');
    expect(await unreadCounts(ME)).toEqual(new Map([[post!.id, 1]]));
    await deleteReply(mine.id);
    expect(await unreadCounts(ME)).toEqual(new Map());
  });
});

describe('read positions on a connected device', () => {
  beforeEach(async () => {
    await markConnected();
  });

  it('coalesces readPost: scrolling a 200-reply thread queues one operation while none is sent', async () => {
    const [post] = await storePosts(synced(makePost({ authorEmail: OTHER })));
    await store(() => db.replies.bulkPut(Array.from({ length: 200 }, (_, i) => reply(`r${i}`, post!.id, clock - 200_000 + i * 1_000))));
    signInAsMember();
    for (let i = 0; i < 200; i += 1) await markRead(post!.id, clock - 200_000 + i * 1_000);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]!.op).toMatchObject({ type: 'readPost', postId: post!.id, readTo: clock - 200_000 + 199_000 });
    expect(await unreadCounts(ME)).toEqual(new Map());
    // One already given to a push is left alone: the next position is queued after it.
    const batch = await nextBatch(ME, 10);
    expect(batch).toHaveLength(1);
    await store(() => db.replies.put(reply('late', post!.id, clock + 5)));
    expect((await unreadCounts(ME)).get(post!.id)).toBe(1);
    await markRead(post!.id, clock + 5);
    expect(await db.outbox.count()).toBe(2);
  });

  it('pulled positions converge: the later wins, never going backwards', async () => {
    const [post] = await storePosts(synced(makePost({ authorEmail: OTHER })));
    const id = post!.id;
    const replies = [reply('a', id, 1_000), reply('b', id, 2_000), reply('c', id, 3_000)];
    await pull({ replies: replies.map((row, i) => wireReply(row, i + 2)), cursor: 5 });
    // Read on another device up to the first reply.
    await pull({ reads: [{ postId: id, readTo: 1_000, seq: 6 }], cursor: 6 });
    expect(await unreadCounts(ME)).toEqual(new Map([[id, 2]]));
    // Read here further (offline), then an older position pulled: this device's stands.
    signInAsMember();
    await markRead(id, 3_000);
    expect(await unreadCounts(ME)).toEqual(new Map());
    await pull({ reads: [{ postId: id, readTo: 2_000, seq: 7 }], cursor: 7 });
    expect(await readPositionOf(ME, id)).toBe(3_000);
    // The server has it: its word comes back, the operation leaves the outbox.
    await answer((ops) => ops.map((op) => ({ id: op.id, status: 'applied', cursor: 8 }) as OpResult));
    await pull({ reads: [{ postId: id, readTo: 3_000, seq: 8 }], cursor: 8 });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.reads.get([ME, id])).toMatchObject({ readTo: 3_000, unread: 0, sync: { readTo: 3_000, seq: 8 } });
    // A later position from another device, with a reply after it.
    await pull({
      replies: [wireReply(reply('d', id, 4_000), 9), wireReply(reply('e', id, 5_000), 10)],
      reads: [{ postId: id, readTo: 4_000, seq: 11 }],
      cursor: 11,
    });
    expect(await unreadCounts(ME)).toEqual(new Map([[id, 1]]));
  });

  it('pulled levels show this device’s outstanding follow on top; a refusal shows the server’s word again', async () => {
    signInAsMember();
    await pull({ follows: [{ kind: 'category', target: 'Quantitative', level: 'watching', at: 1, seq: 2 }], cursor: 2 });
    expect(await followLevelOf(ME, 'category', 'Quantitative')).toBe('watching');
    await setFollowLevel('category', 'Quantitative', 'muted');
    expect(await db.outbox.count()).toBe(1);
    // Another device's older change pulled meanwhile: this device's stands until the server has it.
    await pull({ follows: [{ kind: 'category', target: 'Quantitative', level: 'normal', at: 2, seq: 3 }], cursor: 3 });
    expect(await followLevelOf(ME, 'category', 'Quantitative')).toBe('muted');
    await answer((ops) => ops.map((op) => ({ id: op.id, status: 'refused', code: 'not_found', message: 'Gone.' }) as unknown as OpResult));
    expect(await followLevelOf(ME, 'category', 'Quantitative')).toBe('normal');
    // Pulled "Watch what I write".
    await pull({
      preferences: {
        theme: 'system',
        name: 'Test Member',
        silenced: false,
        silenceReason: null,
        silencedUntil: null,
        autoWatch: false,
        seq: 4,
      },
      cursor: 4,
    });
    expect(await autoWatchOf(ME)).toBe(false);
  });

  it('a new post’s level and position move to the server’s id with the post', async () => {
    signInAsMember();
    const post = await createPost({ title: 'Sampling', content: 'How do you sample?', category: 'Quantitative' });
    expect(await followLevelOf(ME, 'post', String(post.id))).toBe('watching');
    const serverId = 424_242;
    await answer((ops) => ops.map((op) => ({ id: op.id, status: 'applied', cursor: 2, postId: serverId }) as unknown as OpResult));
    expect(await followLevelOf(ME, 'post', String(post.id))).toBeUndefined();
    expect(await followLevelOf(ME, 'post', String(serverId))).toBe('watching');
    expect(await readPositionOf(ME, serverId)).toBe(0);
    expect(await readPositionOf(ME, post.id)).toBeUndefined();
  });

  it('a post that leaves the device takes its read positions and levels; a category the member may no longer see, its level', async () => {
    const [kept, removed, privy] = await storePosts(
      synced(makePost({ authorEmail: OTHER })),
      synced(makePost({ authorEmail: OTHER })),
      synced(makePost({ authorEmail: OTHER, category: 'Desk' })),
    );
    await pull({
      categories: [
        { id: 'Desk', name: 'Desk', description: '', position: 7, archived: false, see: ['g1'], post: null, gone: false, seq: 2 },
      ],
      follows: [
        { kind: 'post', target: String(kept!.id), level: 'watching', at: 1, seq: 3 },
        { kind: 'post', target: String(removed!.id), level: 'watching', at: 1, seq: 3 },
        { kind: 'category', target: 'Desk', level: 'watching', at: 1, seq: 3 },
      ],
      reads: [kept, removed, privy].map((post) => ({ postId: post!.id, readTo: 0, seq: 3 })),
      cursor: 3,
    });
    expect(await db.reads.count()).toBe(3);
    await pull({ removed: [{ id: removed!.id, seq: 4 }], cursor: 4 });
    expect(await readPositionOf(ME, removed!.id)).toBeUndefined();
    expect(await followLevelOf(ME, 'post', String(removed!.id))).toBeUndefined();
    expect(await followLevelOf(ME, 'post', String(kept!.id))).toBe('watching');
    await pull({
      categories: [{ id: 'Desk', name: '', description: '', position: 7, archived: false, see: ['g1'], post: null, gone: true, seq: 5 }],
      cursor: 5,
    });
    expect(await followLevelOf(ME, 'category', 'Desk')).toBeUndefined();
    expect(await readPositionOf(ME, privy!.id)).toBeUndefined();
    expect(await readPositionOf(ME, kept!.id)).toBe(0);
  });

  it('another member signing in here leaves none of the previous member’s levels and positions', async () => {
    const [post] = await storePosts(synced(makePost({ authorEmail: OTHER })));
    await pull({
      follows: [{ kind: 'tag', target: 'options', level: 'muted', at: 1, seq: 2 }],
      reads: [{ postId: post!.id, readTo: 0, seq: 2 }],
      cursor: 2,
    });
    expect(await switchMember(signInAs(OTHER))).toBe(true);
    expect(await followsOf(ME)).toEqual([]);
    expect(await readPositionOf(ME, post!.id)).toBeUndefined();
  });
});
