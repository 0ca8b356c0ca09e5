// What the device's outbox code knows of a queued operation, without a branch on its name (issue
// 60): its definition says whether it makes a post (the batch waits for the server's id; a member
// switch gives it back), which reply it makes and which files it names; a queued row records whether
// it carries its post's words (`writesPost`), so the forum's lists read "Not sent yet" without the
// definitions, and a row an older build queued (without it) asks the definitions instead.
import { describe, expect, it } from 'vitest';
import { db, type OutboxRow } from '../../../../src/db/storage/schema';
import { createPost, unsentPostIds } from '../../../../src/db/posts/posts';
import { editPost } from '../../../../src/db/posts/editing';
import { likePost } from '../../../../src/db/likes/likes';
import { markConnected, SYNC_META } from '../../../../src/db/ops/sync-meta';
import { isUnsentCreate, nextBatch, replyIdOf, writesPost } from '../../../../src/db/ops/outbox';
import { filesNamedBy } from '../../../../src/db/ops/files-named';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { makeSession } from '../../../../src/db/members/session-rules';
import type { Op } from '../../../../src/shared/protocol';
import { makePost, signInAsMember, storePosts, synced } from '../../factories';

const ME = 'member@example.com';
const sha = (char: string) => char.repeat(64);
const op = (fields: Record<string, unknown>) => ({ id: crypto.randomUUID(), ...fields }) as unknown as Op;
/** A row as an older build queued it: no `writesPost`. */
const olderRow = (fields: Record<string, unknown>, postId: number, email = ME): OutboxRow => ({ op: op(fields), postId, email });

describe('the facts of a queued operation', () => {
  it('a queued row records whether it carries its post’s words: a new post and an edit do, a like does not', async () => {
    await markConnected();
    signInAsMember();
    const [approved] = await storePosts(synced(makePost()));
    const [mine] = await storePosts(synced(makePost({ authorEmail: ME })));
    await likePost(approved!.id);
    const created = await createPost({ title: 'Queued', content: 'Body', category: 'Trends' });
    await editPost(mine!.id, { title: 'Edited', content: 'New body', category: 'Trends' });
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((row) => [row.op.type, row.writesPost])).toEqual([
      ['like', false],
      ['create', true],
      ['editPost', true],
    ]);
    expect(await unsentPostIds([approved!.id, created.id, mine!.id])).toEqual(new Set([created.id, mine!.id]));
  });

  it('"Not sent yet" follows what the row recorded, not its name', async () => {
    await markConnected();
    signInAsMember();
    const [liked] = await storePosts(synced(makePost()));
    await likePost(liked!.id);
    const created = await createPost({ title: 'Queued', content: 'Body', category: 'Trends' });
    expect(await unsentPostIds([liked!.id, created.id])).toEqual(new Set([created.id]));
    // Swapped on the rows: the marks swap with them.
    await db.outbox.toCollection().modify((row) => {
      row.writesPost = !row.writesPost;
    });
    expect(await unsentPostIds([liked!.id, created.id])).toEqual(new Set([liked!.id]));
  });

  it('a row an older build queued (without the fact) asks the definitions: its create and edit are "Not sent yet", its like and view not', async () => {
    await db.outbox.bulkAdd([
      olderRow({ type: 'create', post: { title: 'Old', content: 'Queued before the update', category: 'Trends' } }, 11),
      olderRow({ type: 'editPost', postId: 12, post: { title: 'Old edit', content: 'Body', category: 'Trends' }, base: 'approved' }, 12),
      olderRow({ type: 'like', postId: 13, count: 1 }, 13),
      olderRow({ type: 'view', postId: 14 }, 14),
    ]);
    expect((await db.outbox.toArray()).every((row) => row.writesPost === undefined)).toBe(true);
    expect(await unsentPostIds([11, 12, 13, 14])).toEqual(new Set([11, 12]));
    expect(writesPost('create') && writesPost('editPost')).toBe(true);
    expect(writesPost('like') || writesPost('view') || writesPost('reply') || writesPost('editReply')).toBe(false);
  });

  it('the files a queued operation names: a new post’s and a reply’s attachments, as they travel; nothing for others', () => {
    const create = op({
      type: 'create',
      post: { title: 't', content: 'c', attachments: [{ sha256: sha('a'), name: 'a.pdf' }, { name: 'x' }] },
    });
    const reply = op({ type: 'reply', postId: 1, content: 'c', attachments: [{ sha256: sha('b'), name: 'b.csv' }] });
    expect(filesNamedBy(create)).toEqual([sha('a')]);
    expect(filesNamedBy(reply)).toEqual([sha('b')]);
    expect(filesNamedBy(op({ type: 'create', post: { title: 't', content: 'c' } }))).toEqual([]);
    expect(filesNamedBy(op({ type: 'editPost', postId: 1, base: 'approved', post: { attachments: [{ sha256: sha('c') }] } }))).toEqual([]);
    expect(filesNamedBy(op({ type: 'like', postId: 1, count: 1 }))).toEqual([]);
  });

  it('the reply an operation is about: the one a reply makes has its id; another names it', () => {
    const made = op({ type: 'reply', postId: 1, content: 'c' });
    expect(replyIdOf(made)).toBe(made.id);
    const replyId = crypto.randomUUID();
    expect(replyIdOf(op({ type: 'editReply', replyId, content: 'c' }))).toBe(replyId);
    expect(replyIdOf(op({ type: 'like', postId: 1, count: 1 }))).toBeUndefined();
  });

  it('a queued new post (an older build’s row too) holds back what is about it until the server has it', async () => {
    await db.outbox.bulkAdd([
      olderRow({ type: 'create', post: { title: 'Old', content: 'Body', category: 'Trends' } }, 21),
      olderRow({ type: 'like', postId: 21, count: 1 }, 21),
      olderRow({ type: 'like', postId: 22, count: 1 }, 22),
    ]);
    expect(await isUnsentCreate(21)).toBe(true);
    expect(await isUnsentCreate(22)).toBe(false);
    // The like of the new post waits for the next batch (the server's id first).
    expect((await nextBatch(ME, 10)).map((row) => [row.op.type, row.postId])).toEqual([['create', 21]]);
    await db.outbox.where('postId').equals(21).modify({ ackCursor: 5 });
    expect(await isUnsentCreate(21)).toBe(false);
  });

  it('a member switch gives back the new member’s queued new posts (an older build’s row too), not another’s, nor a post for another operation', async () => {
    await markConnected();
    const other = 'other@example.com';
    await db.outbox.bulkAdd([
      olderRow({ type: 'create', post: { title: 'Mine', content: 'Queued by me', category: 'Trends', tags: ['panels'] } }, 31),
      olderRow({ type: 'create', post: { title: 'Theirs', content: 'Queued by them', category: 'Trends' } }, 32, other),
      olderRow({ type: 'like', postId: 33, count: 1 }, 33),
    ]);
    await db.meta.put({ key: SYNC_META.owner, value: other });
    expect(await switchMember(makeSession(ME, 'Test Member'))).toBe(true);
    const posts = await db.posts.toArray();
    expect(posts.map((post) => [post.id, post.title, post.status, post.tags])).toEqual([[31, 'Mine', 'pending', ['panels']]]);
  });
});
