// Attachments through the outbox (issue 42): a file attached on a connected device is uploaded
// before the post that names it, exactly once (a retry after a lost answer, a second sync, the same
// file in two posts: one upload each time it is needed, one stored copy); offline it waits on the
// device with its post; a file the server will not take refuses the post in words and keeps them,
// as does an upload refused because the staff silenced the member (the queue behind it goes on).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { createPost } from '../../../src/db/posts/posts';
import { createReply } from '../../../src/db/replies/replies';
import { loadDraft } from '../../../src/db/posts/drafts';
import { readStoredSession } from '../../../src/db/members/session';
import { keepFile, prepareFile } from '../../../src/db/files/files';
import { ERRORS } from '../../../src/shared/errors';
import { onSyncNotice, type SyncNotice } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { switchMember } from '../../../src/db/sync/member-switch';
import { SYNC_META } from '../../../src/db/ops/sync-meta';
import { makeSession } from '../../../src/db/members/session-rules';
import { startServer } from './test-server';
import { setTheme } from '../../../src/db/preferences/preferences';
import type { Op } from '../../../src/shared/protocol';

const pdfBytes = (text: string) => `%PDF-1.4\n% ${text}\n%%EOF\n`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Attaches a file named `name` holding `text` as the Attach button does: prepared, then kept on the device. */
async function attach(name: string, text: string) {
  const prepared = await prepareFile(new File([text], name));
  await keepFile(readStoredSession()!.email, prepared);
  return prepared.attachment;
}

const uploads = (requests: readonly string[]) => requests.filter((request) => request.startsWith('PUT /api/attachments/'));

describe('attachments through the outbox', () => {
  it('a file goes up before its post, once; the post arrives carrying what the server read of it', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    const file = await attach('Questionnaire v2.pdf', pdfBytes('questionnaire'));
    expect(file).toMatchObject({ sha256: sha(pdfBytes('questionnaire')), mime: 'application/pdf', width: null });
    const post = await createPost({ title: 'The questionnaire', content: 'Attached.', category: 'Trends', attachments: [file] });
    await device.engine.sync();
    expect(uploads(server.requests)).toEqual([`PUT /api/attachments/${file.sha256}`]);
    expect(server.requests.indexOf(`PUT /api/attachments/${file.sha256}`)).toBeLessThan(server.requests.indexOf('POST /api/ops'));
    const [stored] = await server.posts();
    expect(stored!.attachments).toEqual([{ ...file, size: pdfBytes('questionnaire').length }]);
    expect((await db.files.get(file.sha256))!.uploaded).toBe(1);
    // The device's row is the server's now (its id too).
    expect(await db.posts.get(post.id)).toBeUndefined();
    expect((await db.posts.get(stored!.id))!.attachments).toEqual(stored!.attachments);

    // The same file in a second post, and a sync with nothing new: nothing is uploaded again.
    await createPost({ title: 'Again', content: 'The same file.', category: 'Trends', attachments: [file] });
    await device.engine.sync();
    await device.engine.sync();
    expect(uploads(server.requests)).toHaveLength(1);
  });

  it('a file attached to a reply goes up before the reply, and the server keeps it on the reply', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    const post = await server.addPost({ title: 'Asking for evidence', content: 'Attach yours.' });
    await device.engine.sync();
    const file = await attach('Codebook.pdf', pdfBytes('codebook'));
    const reply = await createReply(post.id, 'Here is ours.', null, [file]);
    const [queued] = await db.outbox.toArray();
    expect(queued!.op).toMatchObject({ type: 'reply', attachments: [{ sha256: file.sha256, name: 'Codebook.pdf' }] });
    await device.engine.sync();
    expect(uploads(server.requests)).toEqual([`PUT /api/attachments/${file.sha256}`]);
    const rows = await server.db.query<{ attachments: unknown }>('SELECT attachments FROM replies WHERE id = $1', [reply.id]);
    expect(rows[0]!.attachments).toEqual([{ ...file, size: pdfBytes('codebook').length }]);
  });

  it('offline, the file waits with its post; an upload whose answer was lost is sent again and stored once', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    device.online.value = false;
    const file = await attach('results.csv', 'wave,completes\n1,1204\n');
    await createPost({ title: 'Offline evidence', content: 'Made on a train.', category: 'Trends', attachments: [file] });
    await device.engine.sync();
    expect(server.requests).toEqual([]);
    device.online.value = true;
    let lost = false;
    server.fault = ({ method }) => (method === 'PUT' && !lost ? ((lost = true), 'answer-lost') : undefined);
    await device.engine.sync().catch(() => undefined);
    expect(await db.outbox.count()).toBe(1);
    server.fault = undefined;
    await device.engine.sync();
    expect(uploads(server.requests)).toHaveLength(2);
    const [{ n }] = await server.db.query<{ n: unknown }>('SELECT count(*) AS n FROM attachment_blobs');
    expect(Number(n)).toBe(1);
    expect((await server.posts()).map((post) => post.title)).toEqual(['Offline evidence']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a file the server will not take (HTML named .txt) refuses its post in words; the text is kept as the draft', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    const file = await attach('notes.txt', '<!doctype html><script>alert(1)</script>');
    const post = await createPost({ title: 'Sneaky', content: 'See the notes.', category: 'Trends', attachments: [file] });
    await device.engine.sync();
    stop();
    expect(await server.posts()).toEqual([]);
    expect(await db.posts.get(post.id)).toBeUndefined();
    expect(notices).toEqual([{ title: ERRORS.unsupported_file.title, description: ERRORS.unsupported_file.message }]);
    // Its words and its files come back as the New Post draft (the file is still on this device).
    expect(await loadDraft(readStoredSession()!.email)).toMatchObject({
      title: 'Sneaky',
      content: 'See the notes.',
      attachments: [{ sha256: file.sha256, name: 'notes.txt', mime: 'text/plain', size: file.size, width: null, height: null }],
    });
    expect(await db.outbox.count()).toBe(0);
  });

  it('an upload refused for the session, not the file (401), keeps the post waiting: only the file’s own refusals answer for it', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    await device.engine.sync();
    const file = await attach('panel.pdf', pdfBytes('panel'));
    const post = await createPost({ title: 'Kept through a sign-out', content: 'Still here.', category: 'Trends', attachments: [file] });
    // The session ends on the server (another device's Sign out everywhere) after this device last checked it.
    await server.db.query('DELETE FROM sessions');
    await device.engine.sync().catch(() => undefined);
    expect(uploads(server.requests)).toEqual([`PUT /api/attachments/${file.sha256}`]);
    expect(await server.posts()).toEqual([]);
    expect(await db.posts.get(post.id)).toBeDefined();
    expect((await db.outbox.toArray()).map((row) => row.op.type)).toEqual(['create']);
    expect((await db.files.get(file.sha256))!.uploaded).toBe(0);
  });

  it('an upload refused for silence answers its post `silenced` (kept as the draft) and the queue behind it goes on', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    await device.engine.sync();
    // Written before the device hears of the silence: a post with a file, then a theme (silence allows it).
    const file = await attach('memo.pdf', pdfBytes('memo'));
    await createPost({ title: 'Said before the silence', content: 'Worth keeping.', category: 'Trends', attachments: [file] });
    await setTheme(readStoredSession()!.email, 'dark');
    const memberId = (await server.account(readStoredSession()!.email)).memberId;
    const silence = { id: crypto.randomUUID(), type: 'silenceMember', memberId, silenced: true } as Op;
    expect(await (await server.admin()).push(silence)).toMatchObject([{ status: 'applied' }]);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    await device.engine.sync();
    stop();
    expect(uploads(server.requests)).toEqual([`PUT /api/attachments/${file.sha256}`]);
    expect(notices).toContainEqual({ title: ERRORS.silenced.title, description: ERRORS.silenced.message });
    expect(await server.posts()).toEqual([]);
    expect(await loadDraft(readStoredSession()!.email)).toMatchObject({ title: 'Said before the silence', content: 'Worth keeping.' });
    const [{ theme }] = await server.db.query<{ theme: string }>('SELECT theme FROM users WHERE email = $1', [readStoredSession()!.email]);
    expect(theme).toBe('dark');
    expect(await db.outbox.count()).toBe(0);
  });

  it('a queued post that another member’s sign-in took off the device comes back with its files, tags and poll', async () => {
    await connectedDevice(await startServer());
    const file = await attach('wave 5.pdf', pdfBytes('wave 5'));
    const me = readStoredSession()!;
    const post = await createPost({
      title: 'Queued on a shared tablet',
      content: 'Sent when I am back.',
      category: 'Trends',
      tags: ['panels'],
      attachments: [file],
      poll: { question: 'Which wave?', options: ['4', '5'], multiple: false, closesAt: null },
    });
    await db.meta.put({ key: SYNC_META.owner, value: me.email });
    expect(await switchMember(makeSession('other@example.com', 'Other'))).toBe(true);
    expect(await db.posts.get(post.id)).toBeUndefined();
    await switchMember(me);
    expect(await db.posts.get(post.id)).toMatchObject({
      tags: ['panels'],
      attachments: [expect.objectContaining({ sha256: file.sha256, name: 'wave 5.pdf', mime: 'application/pdf' })],
      poll: expect.objectContaining({ question: 'Which wave?' }),
    });
  });

  it('a file not on the device cannot be named: the post is refused before anything is queued', async () => {
    await connectedDevice(await startServer());
    const ghost = { sha256: 'b'.repeat(64), name: 'ghost.pdf' };
    await expect(createPost({ title: 'Ghost', content: 'Nothing here.', category: 'Trends', attachments: [ghost] })).rejects.toMatchObject({
      code: 'attachment_missing',
    });
    expect(await db.outbox.count()).toBe(0);
  });
});
