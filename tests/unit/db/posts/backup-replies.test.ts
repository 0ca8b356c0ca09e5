import { describe, expect, it, vi } from 'vitest';
import { exportPosts, importPosts, readBackup } from '../../../../src/db/posts/backup';
import { MERGE_CHUNK_SIZE } from '../../../../src/db/posts/merge';
import { listReplies } from '../../../../src/db/replies/replies';
import { countVisibleReplies } from '../../../../src/db/replies/reply-counts';
import { db, type ReplyRow } from '../../../../src/db/storage/schema';
import { BACKUP_VERSION, REPLY_FIELDS } from '../../../../src/db/contracts';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { LIMITS } from '../../../../src/shared/post-rules';
import { validateReply } from '../../../../src/shared/validation';
import type { Post, Reply } from '../../../../src/db/types';
import { makePost, signInAs, signInAsAdmin, storePosts } from '../../factories';

type BackupFile = { version: number; count: number; posts: Post[]; replies: Reply[] };

const fileOf = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)], { type: 'application/json' });
const backupOf = (posts: Post[], replies?: unknown[]) => ({ format: 'insight-exchange-backup', version: 2, posts, replies });
const read = async (blob: Blob) => JSON.parse(await blob.text()) as BackupFile;

let replyNumber = 0;
/** A reply as a backup holds it (visible, by a member, a minute after the previous one). */
function makeReply(postId: number, overrides: Partial<Reply> = {}): Reply {
  replyNumber += 1;
  return {
    id: `reply-${replyNumber}`,
    postId,
    author: 'Replying Member',
    authorEmail: 'replier@example.com',
    authorRole: 'user',
    content: `Reply number ${replyNumber}`,
    quoteId: null,
    createdAt: 1_800_000_000_000 + replyNumber * 60_000,
    editedAt: null,
    state: 'visible',
    ...overrides,
  };
}

/** Stores replies as the device keeps them (deleted ones without text, out of their thread), and recounts nothing. */
async function storeReplies(...replies: Reply[]): Promise<Reply[]> {
  const rows: ReplyRow[] = replies.map((reply) => ({
    ...reply,
    content: reply.state === 'deleted' ? '' : reply.content,
    listed: reply.state === 'deleted' ? 0 : 1,
  }));
  await db.replies.bulkAdd(rows);
  return rows.map(({ listed: _listed, ...reply }) => reply);
}

/** Three posts: A (approved, replies visible, hidden and deleted), B (pending, none), C (another member's, two replies). */
async function forum() {
  const [a, b, c] = await storePosts(
    makePost({ id: 10, authorEmail: 'member@example.com', comments: 1 }),
    makePost({ id: 20, authorEmail: 'member@example.com', status: 'pending' }),
    makePost({ id: 30, authorEmail: 'other@example.com', comments: 2 }),
  );
  const replies = await storeReplies(
    makeReply(30),
    makeReply(10, { state: 'hidden', content: 'Hidden by a moderator, text kept' }),
    makeReply(10),
    makeReply(10, { state: 'deleted' }),
    makeReply(30, { editedAt: 1_900_000_000_000 }),
  );
  return { posts: [a!, b!, c!], replies };
}

describe('exporting replies', () => {
  it('writes an admin’s posts then every reply with a place in its thread, by post and oldest first, with exactly the Reply fields', async () => {
    const { replies } = await forum();
    const [onC, hidden, visible, deleted, edited] = replies;
    signInAsAdmin();
    const result = await exportPosts('all');
    const text = await result.blob.text();
    const data = JSON.parse(text) as BackupFile & Record<string, unknown>;
    expect(data.version).toBe(BACKUP_VERSION);
    expect(BACKUP_VERSION).toBe(2);
    expect(Object.keys(data).slice(-2)).toEqual(['posts', 'replies']);
    expect(data.posts.map((post) => post.id)).toEqual([10, 20, 30]);
    expect(data.replies).toEqual([hidden, visible, onC, edited]);
    for (const reply of data.replies) expect(Object.keys(reply)).toEqual([...REPLY_FIELDS]);
    expect(text).not.toContain(deleted!.id);
    expect(result).toMatchObject({ count: 3, replies: 4 });
  });

  it('writes a member’s own posts with their visible replies only', async () => {
    const { replies } = await forum();
    const visible = replies[2]!;
    signInAs('member@example.com');
    const result = await exportPosts('mine');
    const data = await read(result.blob);
    expect(data.posts.map((post) => post.id)).toEqual([10, 20]);
    expect(data.replies).toEqual([visible]);
    expect(result.replies).toBe(1);
  });

  it('writes an empty list of replies when there are none', async () => {
    await storePosts(makePost({ id: 1 }));
    signInAsAdmin();
    const data = await read((await exportPosts('all')).blob);
    expect(data.replies).toEqual([]);
    expect(readBackup(JSON.stringify(data))).toMatchObject({ replies: [] });
  });
});

describe('importing replies', () => {
  it('round-trips onto a new device: the same posts, threads and states, comments counted from the replies', async () => {
    const { posts, replies } = await forum();
    signInAsAdmin();
    const file = (await exportPosts('all')).blob;
    await db.delete({ disableAutoOpen: false }); // a new device
    signInAsAdmin();
    const result = await importPosts(file);
    expect(result).toMatchObject({ added: 3, updated: 0, replies: { added: 4, updated: 0, unchanged: 0, skipped: 0 } });
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map(({ rev: _rev, arrivedAt: _arrivedAt, ...post }) => post)).toEqual(posts);
    expect(rows.map((post) => post.comments)).toEqual([1, 0, 2]);
    const [onC, hidden, visible, deleted, edited] = replies;
    expect(await listReplies(10, 0)).toEqual([hidden, visible]);
    expect(await listReplies(30, 0)).toEqual([onC, edited]);
    expect(await db.replies.get(deleted!.id)).toBeUndefined();
    expect((await db.replies.toArray()).every((row) => row.listed === 1)).toBe(true);

    // The same file again changes nothing.
    expect(await importPosts(file)).toMatchObject({ added: 0, updated: 0, unchanged: 3, replies: { added: 0, updated: 0, unchanged: 4 } });
    expect(await db.replies.count()).toBe(4);
  });

  it('never takes a post’s comments from the file: they are its visible replies on the device', async () => {
    await storePosts(makePost({ id: 1, comments: 2 }));
    await storeReplies(makeReply(1), makeReply(1), makeReply(1, { state: 'hidden' }));
    signInAsAdmin();
    const file = backupOf(
      [makePost({ id: 1, comments: 50 }), makePost({ id: 2, comments: 99 }), makePost({ id: 3, comments: 7 })],
      [makeReply(3), makeReply(3, { state: 'hidden' }), makeReply(3, { state: 'deleted', content: '' }), makeReply(1)],
    );
    const result = await importPosts(fileOf(file));
    expect(result).toMatchObject({ added: 2, updated: 1, replies: { added: 4 } });
    const counts = (await db.posts.orderBy('id').toArray()).map((post) => post.comments);
    expect(counts).toEqual([3, 0, 1]);
    for (const id of [1, 2, 3]) expect(counts[id - 1]).toBe(await countVisibleReplies(id));
    // A deleted reply is stored out of its thread, without text.
    const deleted = (await db.replies.toArray()).find((row) => row.state === 'deleted')!;
    expect(deleted).toMatchObject({ postId: 3, listed: 0, content: '' });
  });

  it('imports a version-1 file (no replies): its posts, with the comments of the device', async () => {
    await storePosts(makePost({ id: 1 }));
    await storeReplies(makeReply(1));
    signInAsAdmin();
    const v1 = {
      format: 'insight-exchange-backup',
      version: 1,
      posts: [makePost({ id: 1, comments: 9, likes: 4 }), makePost({ id: 2, comments: 9 })],
    };
    const result = await importPosts(fileOf(v1));
    expect(result).toMatchObject({ added: 1, updated: 1, replies: { added: 0, updated: 0, unchanged: 0, skipped: 0 } });
    expect((await db.posts.orderBy('id').toArray()).map((post) => [post.id, post.likes, post.comments])).toEqual([
      [1, 4, 1],
      [2, 0, 0],
    ]);
    expect(await db.replies.count()).toBe(1);
  });

  it('adds replies to posts only the device has, and recounts them', async () => {
    await storePosts(makePost({ id: 5 }));
    signInAsAdmin();
    const result = await importPosts(fileOf(backupOf([makePost({ id: 6 })], [makeReply(5), makeReply(6), makeReply(5)])));
    expect(result.replies).toMatchObject({ added: 3 });
    expect((await db.posts.bulkGet([5, 6])).map((post) => post?.comments)).toEqual([2, 1]);
  });

  it('merges a known reply: a newer edit’s text wins; its post and the device’s state stand', async () => {
    await storePosts(makePost({ id: 1 }), makePost({ id: 2 }));
    const [older, newer, hidden, deleted, moved] = await storeReplies(
      makeReply(1, { content: 'Device text', editedAt: 5 }),
      makeReply(1, { content: 'Device text, edited later', editedAt: 50 }),
      makeReply(1, { state: 'hidden', content: 'Hidden here' }),
      makeReply(1, { state: 'deleted' }),
      makeReply(1, { content: 'On post 1' }),
    );
    signInAsAdmin();
    const file = backupOf(
      [makePost({ id: 1 }), makePost({ id: 2 })],
      [
        { ...older, content: 'File text, edited later', editedAt: 10 },
        { ...newer, content: 'File text, edited earlier', editedAt: 20 },
        { ...hidden, state: 'visible' },
        { ...deleted, state: 'visible', content: 'Back from the dead' },
        { ...moved, postId: 2, content: 'Moved?', editedAt: 99 },
      ],
    );
    const result = await importPosts(fileOf(file));
    expect(result.replies).toEqual({ added: 0, updated: 1, unchanged: 4, skipped: 0 });
    const rows = await db.replies.bulkGet([older!.id, newer!.id, hidden!.id, deleted!.id, moved!.id]);
    expect(rows.map((row) => [row?.postId, row?.content, row?.editedAt, row?.state])).toEqual([
      [1, 'File text, edited later', 10, 'visible'],
      [1, 'Device text, edited later', 50, 'visible'],
      [1, 'Hidden here', null, 'hidden'],
      [1, '', null, 'deleted'],
      [1, 'On post 1', null, 'visible'],
    ]);
    expect((await db.posts.bulkGet([1, 2])).map((post) => post?.comments)).toEqual([3, 0]);
  });

  it('keeps a quote only when the quoted reply is on the same post', async () => {
    await storePosts(makePost({ id: 1 }));
    const [onDevice] = await storeReplies(makeReply(1));
    signInAsAdmin();
    const quoted = makeReply(2);
    const elsewhere = makeReply(3);
    const replies = [
      quoted,
      elsewhere,
      makeReply(2, { quoteId: quoted.id }),
      makeReply(2, { quoteId: elsewhere.id }),
      makeReply(2, { quoteId: onDevice!.id }),
      makeReply(1, { quoteId: onDevice!.id }),
      makeReply(2, { quoteId: 'never-seen' }),
    ];
    await importPosts(fileOf(backupOf([makePost({ id: 2 }), makePost({ id: 3 })], replies)));
    const rows = await db.replies.bulkGet(replies.map((reply) => reply.id));
    expect(rows.map((row) => row?.quoteId)).toEqual([null, null, quoted.id, null, null, onDevice!.id, null]);
  });

  // A whole chunk of 4,000 rows written into fake-indexeddb: 10–30 s on a busy 2-core machine, so
  // this one case has its own time (the others keep the suite's 30 s).
  it('writes each post with all its replies in one chunk of at most MERGE_CHUNK_SIZE rows, so a cancel leaves whole threads', async () => {
    signInAsAdmin();
    // A post with 40 replies is 41 rows: a chunk holds as many whole threads as fit.
    const fit = Math.floor(MERGE_CHUNK_SIZE / 41);
    const posts = Array.from({ length: fit + 6 }, (_, i) => makePost({ id: i + 1 }));
    const replyWrites = vi.spyOn(db.replies, 'bulkAdd');
    const replies = posts.flatMap((post) => Array.from({ length: 40 }, () => makeReply(post.id)));
    const controller = new AbortController();
    const seen: number[] = [];
    const result = await importPosts(fileOf(backupOf(posts, replies)), {
      signal: controller.signal,
      onProgress: ({ phase, done }) => {
        if (phase !== 'writing') return;
        seen.push(done);
        if (done > 0) controller.abort();
      },
    });
    expect(seen).toEqual([0, fit]);
    expect(result).toMatchObject({ cancelled: true, processed: fit, added: fit, replies: { added: fit * 40 } });
    expect(await db.replies.count()).toBe(fit * 40);
    const counts = (await db.posts.toArray()).map((post) => post.comments);
    expect(counts).toEqual(Array.from({ length: fit }, () => 40));
    // The chunk's replies reach IndexedDB 1,000 at a time, like its posts (no one long clone).
    expect(replyWrites.mock.calls.map(([rows]) => rows.length)).toEqual([1000, 1000, 1000, fit * 40 - 3000]);
    replyWrites.mockRestore();
  }, 120_000);

  it('checks the replies but writes none on a connected device (the server takes replies only from their author)', async () => {
    await markConnected();
    signInAsAdmin();
    const result = await importPosts(fileOf(backupOf([makePost({ id: 1, comments: 2 })], [makeReply(1), makeReply(1)])));
    expect(result).toMatchObject({ added: 1, replies: { added: 0, skipped: 2 } });
    expect(await db.replies.count()).toBe(0);
    expect((await db.posts.get(1))?.comments).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    await expect(
      importPosts(fileOf(backupOf([makePost({ id: 2 })], [makeReply(1), { ...makeReply(2), state: 'gone' }]))),
    ).rejects.toMatchObject({
      message: expect.stringContaining('Reply 2'),
    });
  });
});

describe('a backup with a bad reply', () => {
  const refusal = (replies: unknown[], posts = [makePost({ id: 1 })]) => importPosts(fileOf(backupOf(posts, replies)));
  const ruleOf = (text: string) => validateReply(text)!.message.replace(/\.$/u, '');

  it.each([
    ['no object', () => ['just text'], 'Reply 1 is not an object.'],
    [
      'an id too long',
      () => [makeReply(1), makeReply(1, { id: 'x'.repeat(65) })],
      'Reply 2 has no valid id (a text of 1 to 64 characters).',
    ],
    ['a number for id', () => [{ ...makeReply(1), id: 7 }], 'Reply 1 has no valid id (a text of 1 to 64 characters).'],
    ['no post id', () => [{ ...makeReply(1), postId: '1' }], 'Reply 1 (id reply-X) has no valid post id.'],
    [
      'an unknown state',
      () => [makeReply(1), makeReply(1), { ...makeReply(1), state: 'removed' }],
      'Reply 3 (id reply-X) has no valid state.',
    ],
    ['no content', () => [{ ...makeReply(1), content: null }], 'Reply 1 (id reply-X) has no content.'],
    ['a time that is not a number', () => [{ ...makeReply(1), createdAt: '2024-05-01' }], 'Reply 1 (id reply-X) has no valid time'],
    ['an edit time that is not a number', () => [{ ...makeReply(1), editedAt: 'yesterday' }], 'Reply 1 (id reply-X) has no valid time'],
    ['a time past any date a browser can show', () => [{ ...makeReply(1), createdAt: 1e17 }], 'Reply 1 (id reply-X) has no valid time'],
    ['a time before 1970', () => [{ ...makeReply(1), editedAt: -5 }], 'Reply 1 (id reply-X) has no valid time'],
    [
      'a quote that is not an id',
      () => [{ ...makeReply(1), quoteId: 12 }],
      'Reply 1 (id reply-X) has no valid quote (a reply id or null).',
    ],
    [
      'an author too long',
      () => [makeReply(1, { author: 'A'.repeat(LIMITS.name + 1) })],
      'Reply 1 (id reply-X) is refused: Author can be at most 100',
    ],
  ])('refuses the whole file for %s, naming the reply', async (_case, replies, sentence) => {
    signInAsAdmin();
    const list = replies();
    const id = (list.at(-1) as { id?: unknown }).id;
    const expected = sentence.replace('reply-X', String(id));
    await expect(refusal(list)).rejects.toMatchObject({
      code: 'invalid',
      title: 'Backup not imported',
      message: expect.stringContaining(expected),
    });
    await expect(refusal(list)).rejects.toMatchObject({ message: expect.stringMatching(/ Nothing was imported\.$/u) });
    expect(await db.posts.count()).toBe(0);
    expect(await db.replies.count()).toBe(0);
  });

  it('refuses text the reply box would refuse, with the rule’s sentence', async () => {
    signInAsAdmin();
    for (const content of ['   ', 'x'.repeat(LIMITS.reply + 1), 'A NUL \u0000 inside', 'Half \uDC00 pair']) {
      const reply = makeReply(1, { content });
      await expect(refusal([makeReply(1), reply])).rejects.toMatchObject({
        message: `Reply 2 (id ${reply.id}) is refused: ${ruleOf(content)}. Nothing was imported.`,
      });
    }
    // A hidden or deleted reply may come without text (a member's copy of a hidden one, a deleted one).
    await expect(
      refusal([makeReply(1, { state: 'hidden', content: '' }), makeReply(1, { state: 'deleted', content: '' })]),
    ).resolves.toMatchObject({
      replies: { added: 2 },
    });
  });

  it('refuses a reply on a post neither in the file nor on the device, and a repeated id, before writing anything', async () => {
    await storePosts(makePost({ id: 5 }));
    signInAsAdmin();
    const good = Array.from({ length: 1_500 }, (_, i) => makePost({ id: 100 + i }));
    const orphan = makeReply(42);
    await expect(refusal([makeReply(5), makeReply(100), orphan], good)).rejects.toMatchObject({
      message: `Reply 3 (id ${orphan.id}) is on post 42, which is neither in this file nor on this device. Nothing was imported.`,
    });
    const twice = makeReply(100);
    await expect(refusal([twice, makeReply(5), { ...twice, content: 'Again' }], good)).rejects.toMatchObject({
      message: `Reply 3 (id ${twice.id}) has the same id as reply 1. Nothing was imported.`,
    });
    await expect(importPosts(fileOf({ ...backupOf(good), replies: { 0: makeReply(5) } }))).rejects.toMatchObject({
      message: expect.stringContaining('"replies" field that is not a list'),
    });
    expect(await db.posts.count()).toBe(1);
    expect(await db.replies.count()).toBe(0);
  });

  it('reads a file’s replies trimmed, with emails as sign-in compares them; a bare list of posts has none', () => {
    const post = makePost({ id: 1 });
    const reply = makeReply(1, { authorEmail: '  Replier@Example.COM ', content: '  Padded  ' });
    const contents = readBackup(JSON.stringify(backupOf([post], [reply])));
    expect(contents).toEqual({ posts: [post], replies: [{ ...reply, authorEmail: 'replier@example.com', content: 'Padded' }] });
    expect(Object.keys(contents.replies[0]!)).toEqual([...REPLY_FIELDS]);
    expect(readBackup(JSON.stringify([post])).replies).toEqual([]);
    expect(readBackup(JSON.stringify({ ...backupOf([post]), version: 1 })).replies).toEqual([]);
  });
});
