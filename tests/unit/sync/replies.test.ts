// Replies and views travel like posts and likes, against the real server (test-server.ts): a reply
// written offline is sent once (even when the answer is lost), other members' replies arrive in a
// pull and are counted, an admin's hide reaches a member without its text, edits and deletes
// travel, a refused reply goes back to the reply box, and a view counts once per member.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { getPost } from '../../../src/db/posts/posts';
import { createReply, deleteReply, editReply, listReplies, loadReplyDraft, recordView } from '../../../src/db/replies/replies';
import { countWaiting } from '../../../src/db/ops/outbox';
import { approvePost, createPost } from '../../../src/db/posts/posts';
import { getSyncStatus, onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { makePost, storePosts } from '../factories';
import { connectedDevice } from './harness';
import { startServer, type TestServer } from './test-server';

const MEMBER = 'member@example.com';

/** The server's replies (every state, the text as stored). */
async function serverReplies(server: TestServer): Promise<{ id: string; content: string; state: string }[]> {
  return (await server.db.query('SELECT id, content, state FROM replies ORDER BY created_at')).map((row) => ({
    id: String(row.id),
    content: String(row.content),
    state: String(row.state),
  }));
}

describe('replies and views through the real server', () => {
  beforeEach(() => resetSyncStatus());

  it('a reply written offline is sent once when the network returns, and a lost answer changes nothing', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const { engine } = await connectedDevice(server);
    await engine.sync();

    server.down = true;
    const written = await createReply(post.id, '  Offline thoughts on weighting.  ');
    await engine.sync();
    expect(await countWaiting()).toBe(1);
    expect((await listReplies(post.id, 0)).map((reply) => reply.content)).toEqual(['Offline thoughts on weighting.']);

    server.down = false;
    // The server applies the push, but its answer never arrives: the next push is a duplicate.
    server.fault = ({ method, url }) => (method === 'POST' && url.pathname === '/api/ops' ? 'answer-lost' : undefined);
    await engine.sync();
    server.fault = undefined;
    await engine.sync();
    expect(await countWaiting()).toBe(0);
    expect(getSyncStatus()).toMatchObject({ state: 'synced' });
    expect(await serverReplies(server)).toEqual([{ id: written.id, content: 'Offline thoughts on weighting.', state: 'visible' }]);
    expect((await server.post(post.id))?.comments).toBe(1);
    expect((await getPost(post.id))?.comments).toBe(1);
    expect(await db.replies.count()).toBe(1);
  });

  it("another member's reply arrives with the next pull and is counted, quote included", async () => {
    const server = await startServer();
    const post = await server.addPost();
    const other = await server.member('other@example.com');
    const first = randomUUID();
    await other.push({ id: first, type: 'reply', postId: post.id, content: 'First!' });
    await other.push({ id: randomUUID(), type: 'reply', postId: post.id, content: 'Quoting myself.', quoteId: first });
    const { engine } = await connectedDevice(server);
    await engine.sync();
    const replies = await listReplies(post.id, 0);
    expect(replies.map((reply) => [reply.content, reply.author, reply.quoteId])).toEqual([
      ['First!', 'Other', null],
      ['Quoting myself.', 'Other', first],
    ]);
    expect((await getPost(post.id))?.comments).toBe(2);
  });

  it('a reply an admin hides reaches a member without its text and leaves the count; a restore brings it back', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const { engine } = await connectedDevice(server);
    await engine.sync();
    const mine = await createReply(post.id, 'Visit my site for cheap panels.');
    await engine.sync();
    const admin = await server.admin();
    await admin.push({ id: randomUUID(), type: 'hideReply', replyId: mine.id });
    await engine.sync();
    expect(await listReplies(post.id, 0)).toMatchObject([{ id: mine.id, state: 'hidden', content: '' }]);
    expect((await getPost(post.id))?.comments).toBe(0);

    await admin.push({ id: randomUUID(), type: 'restoreReply', replyId: mine.id });
    await engine.sync();
    expect(await listReplies(post.id, 0)).toMatchObject([{ id: mine.id, state: 'visible', content: 'Visit my site for cheap panels.' }]);
    expect((await getPost(post.id))?.comments).toBe(1);
  });

  it('an edit and a delete travel; an edit the server refuses (hidden meanwhile) is undone and told', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const { engine } = await connectedDevice(server);
    const notices: SyncNotice[] = [];
    onSyncNotice((notice) => notices.push(notice));
    await engine.sync();
    const kept = await createReply(post.id, 'Draft wording.');
    const gone = await createReply(post.id, 'Posted twice by mistake.');
    await engine.sync();
    await editReply(kept.id, 'Final wording.');
    await deleteReply(gone.id);
    expect((await getPost(post.id))?.comments).toBe(1);
    // The deletion waits out its Undo window before it is sent.
    await engine.sync();
    expect(await serverReplies(server)).toContainEqual({ id: gone.id, content: 'Posted twice by mistake.', state: 'visible' });
    await db.outbox.toCollection().modify((row) => void (row.holdUntil = Date.now()));
    await engine.sync();
    expect(await serverReplies(server)).toEqual([
      { id: kept.id, content: 'Final wording.', state: 'visible' },
      { id: gone.id, content: '', state: 'deleted' },
    ]);
    expect((await server.post(post.id))?.comments).toBe(1);
    expect((await listReplies(post.id, 0)).map((reply) => reply.id)).toEqual([kept.id]);

    // The admin hides it on the server before this device hears of it; the edit is refused.
    await (await server.admin()).push({ id: randomUUID(), type: 'hideReply', replyId: kept.id });
    await editReply(kept.id, 'Edited again.');
    await engine.sync();
    expect(notices).toContainEqual({
      title: 'Hidden by a moderator',
      description: 'A moderator hid this reply, so it can no longer be edited.',
    });
    expect(await listReplies(post.id, 0)).toMatchObject([{ id: kept.id, state: 'hidden', content: '' }]);
    expect(await countWaiting()).toBe(0);
  });

  it('a reply the server refuses leaves the thread and its text goes back to the reply box', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server);
    // A post this device believes approved that the server does not have.
    await storePosts(makePost({ id: 7, status: 'approved' }));
    await db.posts.update(7, { sync: { seq: 1, likes: 0, status: 'approved' } });
    await createReply(7, 'Worth keeping.');
    await engine.sync();
    expect(await listReplies(7, 0)).toEqual([]);
    expect((await getPost(7))?.comments).toBe(0);
    expect(await loadReplyDraft(MEMBER, 7)).toBe('Worth keeping.');
  });

  it('replies to a post whose create the server refuses go with the post', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server, server.adminEmail);
    await engine.sync();
    // Offline, the admin writes a post, approves it and replies to it.
    const post = await createPost({ title: 'Made offline', content: 'Approved and answered here.', category: 'Trends' });
    await approvePost(post.id);
    await createReply(post.id, 'A first answer.');
    // Another account already used the create's operation id (a forged or buggy client): refused.
    const create = (await db.outbox.orderBy('seq').first())!.op;
    await (await server.member('other@example.com')).push({ ...create });
    await engine.sync();
    expect(await db.posts.get(post.id)).toBeUndefined();
    expect(await db.replies.count()).toBe(0);
    expect(await countWaiting()).toBe(0);
  });

  it('a view counts once per member: a second open, or the same member on another device, adds nothing', async () => {
    const server = await startServer();
    const post = await server.addPost();
    const { engine } = await connectedDevice(server);
    await engine.sync();
    expect(await recordView(post.id)).toBe(true);
    expect(await recordView(post.id)).toBe(false);
    expect((await getPost(post.id))?.views).toBe(1);
    await engine.sync();
    expect((await server.post(post.id))?.views).toBe(1);
    // The same member on another device.
    await (await server.member(MEMBER)).push({ id: randomUUID(), type: 'view', postId: post.id });
    // Another member.
    await (await server.member('other@example.com')).push({ id: randomUUID(), type: 'view', postId: post.id });
    await engine.sync();
    expect((await server.post(post.id))?.views).toBe(2);
    expect((await getPost(post.id))?.views).toBe(2);
  });
});
