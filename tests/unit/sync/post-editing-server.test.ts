// Editing and deleting posts against the real server (test-server.ts): an edit of a rejected post
// resubmits it on the server, an approved post's edit reaches the server with its previous version,
// an edit that crossed a review is refused and its text kept, a held deletion reaches the server
// once when its window ends (and never when undone), and another member's deletion leaves this
// device with the next pull.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { deletePost, editPost, loadEditDraft, undoDeletion } from '../../../src/db/posts/editing';
import { createPost, getPost } from '../../../src/db/posts/posts';
import { countWaiting } from '../../../src/db/ops/outbox';
import { UNDO_WINDOW_MS } from '../../../src/shared/post-rules';
import { getSyncStatus, onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { startServer, type TestServer } from './test-server';

const MEMBER = 'member@example.com';

/** The rows of deleted_posts (the server keeps them for admins and backups). */
async function deletedOnServer(server: TestServer): Promise<number[]> {
  return (await server.db.query('SELECT id FROM deleted_posts ORDER BY id')).map((row) => Number(row.id));
}

let clock = 0;
beforeEach(() => {
  resetSyncStatus();
  clock = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());

describe('editing and deleting posts through the real server', () => {
  it('an edit of a rejected post sends it back to review, marked resubmitted, on the server and the device', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server);
    await createPost({ title: 'Tracker design', content: 'First draft.', category: 'Trends' });
    await engine.sync();
    const id = (await db.posts.where('authorEmail').equals(MEMBER).first())!.id;
    await (await server.admin()).reject(id);
    await engine.sync();
    expect((await getPost(id))?.status).toBe('rejected');

    await editPost(id, { title: 'Tracker design', content: 'Second draft, **shorter**.', category: 'Trends' });
    expect(await getPost(id)).toMatchObject({ status: 'pending', resubmitted: true });
    await engine.sync();
    expect(await countWaiting()).toBe(0);
    expect(await server.post(id)).toMatchObject({ status: 'pending', resubmitted: true, content: 'Second draft, **shorter**.' });
    expect(await getPost(id)).toMatchObject({ status: 'pending', resubmitted: true, content: 'Second draft, **shorter**.' });
  });

  it("an approved post's edit keeps it approved, marks it edited, and the server keeps the previous version for admins", async () => {
    const server = await startServer();
    const post = await server.addPost({ authorEmail: MEMBER, title: 'Panel quality', content: 'Original.' });
    const { engine } = await connectedDevice(server);
    await engine.sync();
    await editPost(post.id, { title: 'Panel quality', content: 'Corrected figures.', category: post.category });
    await engine.sync();
    const stored = await server.post(post.id);
    expect(stored).toMatchObject({ status: 'approved', content: 'Corrected figures.' });
    expect(stored?.editedAt).toEqual(expect.any(Number));
    const [row] = await server.db.query('SELECT previous FROM posts WHERE id = $1', [post.id]);
    expect(row?.previous).toMatchObject({ content: 'Original.' });
    // A member's device never holds the previous version.
    expect((await db.posts.get(post.id))?.previous ?? null).toBeNull();
  });

  it('an edit made offline while an admin reviewed the post is refused with a sentence; the text is kept as the edit draft', async () => {
    const server = await startServer();
    const post = await server.addPost({ authorEmail: MEMBER, status: 'pending', content: 'Version one.' });
    const { engine } = await connectedDevice(server);
    await engine.sync();
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    server.down = true;
    await editPost(post.id, { title: post.title, content: 'Version two, written offline.', category: post.category });
    await engine.sync();
    await (await server.admin()).approve(post.id);
    server.down = false;
    await engine.sync();
    stop();
    expect(await getPost(post.id)).toMatchObject({ status: 'approved', content: 'Version one.' });
    expect(await loadEditDraft(MEMBER, post.id)).toMatchObject({ content: 'Version two, written offline.' });
    expect(JSON.stringify(notices)).toContain('reviewed this post while you were editing it');
    expect((await server.post(post.id))?.content).toBe('Version one.');
  });

  it('a deletion waits out its Undo window, then reaches the server exactly once; an undone one never does', async () => {
    const server = await startServer();
    const kept = await server.addPost({ authorEmail: MEMBER, title: 'Kept' });
    const gone = await server.addPost({ authorEmail: MEMBER, title: 'Gone' });
    const { engine } = await connectedDevice(server);
    await engine.sync();

    const undone = await deletePost(kept.id);
    await engine.sync();
    expect(await deletedOnServer(server)).toEqual([]);
    await undoDeletion(undone);
    expect((await getPost(kept.id))?.title).toBe('Kept');

    await deletePost(gone.id);
    await engine.sync();
    expect(await deletedOnServer(server)).toEqual([]);
    clock += UNDO_WINDOW_MS + 1_000;
    // The answer is lost once: the retry is a duplicate, applied once.
    server.fault = ({ method, url }) => (method === 'POST' && url.pathname === '/api/ops' ? 'answer-lost' : undefined);
    await engine.sync();
    server.fault = undefined;
    await engine.sync();
    expect(await countWaiting()).toBe(0);
    expect(getSyncStatus()).toMatchObject({ state: 'synced' });
    expect(await deletedOnServer(server)).toEqual([gone.id]);
    expect(await server.post(kept.id)).toBeDefined();
    expect(await server.post(gone.id)).toBeUndefined();
    expect(await db.posts.get(gone.id)).toBeUndefined();
    expect(await db.posts.get(kept.id)).toBeDefined();
  });

  it('a new post deleted while its create was on its way, the answer lost, is deleted on the server once the window ends', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server);
    await engine.sync();
    const post = await createPost({ title: 'Second thoughts', content: 'Posted, then regretted.', category: 'Trends' });
    // The server applies the create, but its answer never arrives.
    server.fault = ({ method, url }) => (method === 'POST' && url.pathname === '/api/ops' ? 'answer-lost' : undefined);
    await engine.sync();
    server.fault = undefined;
    const onServer = (await server.posts()).filter((row) => row.title === 'Second thoughts');
    expect(onServer).toHaveLength(1);
    await deletePost(post.id);
    await engine.sync();
    clock += UNDO_WINDOW_MS + 1_000;
    await engine.sync();
    await engine.sync();
    expect(await countWaiting()).toBe(0);
    expect(await deletedOnServer(server)).toEqual([onServer[0]!.id]);
    expect((await db.posts.toArray()).some((row) => row.title === 'Second thoughts')).toBe(false);
  });

  it("another member's deletion leaves this device, with the post's replies, at the next pull", async () => {
    const server = await startServer();
    const author = await server.member('author@example.com');
    const post = await author.create({ title: 'Short-lived' });
    await (await server.admin()).approve(post.id);
    await author.push({ id: randomUUID(), type: 'reply', postId: post.id, content: 'A reply to it.' });
    const { engine } = await connectedDevice(server);
    await engine.sync();
    expect(await db.posts.get(post.id)).toBeDefined();
    expect(await db.replies.where('[postId+state]').between([post.id, ''], [post.id, '\uffff']).count()).toBe(1);

    const [result] = await author.push({ id: randomUUID(), type: 'deletePost', postId: post.id });
    expect(result).toMatchObject({ status: 'applied' });
    await engine.sync();
    expect(await db.posts.get(post.id)).toBeUndefined();
    expect(await db.replies.where('[postId+state]').between([post.id, ''], [post.id, '\uffff']).count()).toBe(0);
  });
});
