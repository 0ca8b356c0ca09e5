// Safe with strangers on the device, against the real server (test-server.ts): an operation over its
// limit is kept and sent when allowed (never dropped, never set aside); a silenced member's device
// refuses their writing at once and keeps a reply queued before the silence as a draft; a suspension
// signs the device out with the staff's reason; a rename reaches another member's device as one
// `members` row; another member's email never reaches this device.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { createReply, loadReplyDraft } from '../../../src/db/replies/replies';
import { countWaiting } from '../../../src/db/ops/outbox';
import { ERRORS } from '../../../src/shared/errors';
import type { Op } from '../../../src/shared/protocol';
import { onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { endSessions } from '../../../server/db/members/accounts';
import { startServer } from './test-server';
import { RELAXED_LIMITS } from '../../server/support/limits';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { deleteSpammer, silenceMember, suspendMember } from '../../../src/db/moderation/members';

const MEMBER = 'member@example.com';
beforeEach(() => resetSyncStatus());
afterEach(() => vi.restoreAllMocks());

function notices(): SyncNotice[] {
  const list: SyncNotice[] = [];
  onSyncNotice((notice) => list.push(notice));
  return list;
}

describe('safe with strangers on a connected device', () => {
  it('a reply over its limit is held (told "Slow down", when, and that it is kept) and sent once allowed', async () => {
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const server = await startServer({
      memberLimits: { ...RELAXED_LIMITS, seconds_between_replies: { count: 1, seconds: 30, firstDayCount: 1, firstDaySeconds: 30 } },
    });
    const post = await server.addPost({ title: 'Busy thread' });
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    const told = notices();
    await createReply(post.id, 'First, at once.');
    await createReply(post.id, 'Second, too soon.');
    await engine.sync();
    expect(told).toEqual([
      {
        title: 'Slow down',
        description: 'You are doing that too often. Try again in 30 seconds. It is kept on this device and sent then.',
      },
    ]);
    const held = await db.outbox.toArray();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ op: { type: 'reply', content: 'Second, too soon.' } });
    expect(held[0]!.holdUntil).toBe(now + 30_000);
    expect(held[0]!.failures ?? 0).toBe(0);
    expect(await countWaiting(MEMBER)).toBe(1);
    // Once the wait is over, the next cycle sends it.
    now += 30_001;
    await engine.sync();
    expect(await db.outbox.count()).toBe(0);
    const replies = await server.db.query(`SELECT content FROM replies WHERE post_id = $1 ORDER BY created_at`, [post.id]);
    expect(replies.map((row) => row.content)).toEqual(['First, at once.', 'Second, too soon.']);
  });

  it('silenced: the device says so and refuses writing at once; a reply queued before the silence is refused and kept as a draft', async () => {
    const server = await startServer();
    const post = await server.addPost({ title: 'Before the silence' });
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    // Written offline, before the device hears of the silence.
    await createReply(post.id, 'Words worth keeping.');
    const memberId = (await server.account(MEMBER)).memberId;
    const admin = await server.admin();
    expect(await admin.push({ id: randomUUID(), type: 'silenceMember', memberId, silenced: true } as Op)).toMatchObject([
      { status: 'applied' },
    ]);
    const told = notices();
    await engine.sync();
    expect(told.map((notice) => notice.title)).toContain('Account silenced');
    expect(await db.replies.where('postId').equals(post.id).count()).toBe(0);
    expect(await loadReplyDraft(MEMBER, post.id)).toBe('Words worth keeping.');
    expect((await db.preferences.get(MEMBER))?.sync?.silenced).toBe(true);
    await expect(createReply(post.id, 'Still trying.')).rejects.toMatchObject({ code: 'silenced', message: ERRORS.silenced.message });
    expect(await db.outbox.count()).toBe(0);
  });

  it('suspended: the next sync signs the device out with the staff’s reason and until when', async () => {
    const server = await startServer();
    const stopped: unknown[] = [];
    const { engine } = await connectedDevice(server, MEMBER, { onSignedOut: (why) => stopped.push(why) });
    await engine.sync();
    const memberId = (await server.account(MEMBER)).memberId;
    const until = Date.now() + 2 * 24 * 60 * 60 * 1000;
    await (await server.admin()).push({ id: randomUUID(), type: 'suspendMember', memberId, until, reason: 'Spam.' } as Op);
    engine.sessionChanged();
    await engine.sync();
    expect(stopped).toEqual([
      {
        title: 'Account suspended',
        description: expect.stringMatching(/^Your account is suspended until \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d\. Reason: Spam\.$/),
      },
    ]);
  });

  it('staff actions written offline wait in the outbox and are sent once: suspend, silence, delete a spammer', async () => {
    const server = await startServer();
    const spam = await server.addPost({ title: 'Cheap followers', authorEmail: 'spammer@example.com' });
    const quiet = (await server.account('quiet@example.com')).memberId;
    const suspended = (await server.account(MEMBER)).memberId;
    const spammer = (await server.account('spammer@example.com')).memberId;
    const admin = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
    await admin.engine.sync();
    expect(await db.posts.get(spam.id)).toBeDefined();
    // The staff log so far (the spam post's approval).
    const staffLog = async () =>
      (await server.db.query<{ action: string }>("SELECT action FROM staff_log WHERE action <> 'approve' ORDER BY id")).map(
        (row) => row.action,
      );
    // Offline: each action is done on the tablet at once and waits to be sent.
    admin.online.value = false;
    await suspendMember(suspended, Date.now() + 3 * 24 * 60 * 60 * 1000, 'Rude replies.');
    await silenceMember(quiet, true, 'Heated replies');
    await deleteSpammer(spammer);
    expect(await db.posts.get(spam.id)).toBeUndefined();
    expect((await db.outbox.toArray()).map((row) => row.op.type)).toEqual(['suspendMember', 'silenceMember', 'deleteSpammer']);
    await admin.engine.sync();
    expect(await staffLog()).toEqual([]);
    // Back online: sent once (a second cycle sends nothing again).
    admin.online.value = true;
    await admin.engine.sync();
    await admin.engine.sync();
    expect(await db.outbox.count()).toBe(0);
    expect(await staffLog()).toEqual(['suspendMember', 'silenceMember', 'deleteSpammer']);
    const [member] = await server.db.query<{ suspended_until: string | null; silenced: boolean }>(
      'SELECT suspended_until, (SELECT silenced FROM users WHERE email = $2) AS silenced FROM users WHERE email = $1',
      [MEMBER, 'quiet@example.com'],
    );
    expect(Number(member!.suspended_until)).toBeGreaterThan(Date.now());
    expect(member!.silenced).toBe(true);
    expect(await server.db.query('SELECT id FROM posts WHERE id = $1', [spam.id])).toEqual([]);
  });

  it('another member’s rename reaches this device as one `members` row: their posts and replies here take the name', async () => {
    const server = await startServer();
    const post = await server.addPost({ title: 'By someone', authorEmail: 'renamer@example.com' });
    const renamer = await server.member('renamer@example.com');
    await renamer.push({ id: randomUUID(), type: 'reply', postId: post.id, content: 'Their reply.' } as Op);
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    const before = await db.posts.get(post.id);
    expect(before).toMatchObject({ author: 'Renamer', authorEmail: '', authorId: post.authorId });
    const head = await server.head();
    await renamer.push({ id: randomUUID(), type: 'rename', name: 'Ren Amer' } as Op);
    expect(await server.head()).toBe(head + 1);
    await engine.sync();
    expect(await db.posts.get(post.id)).toMatchObject({ author: 'Ren Amer' });
    expect((await db.replies.where('postId').equals(post.id).first())?.author).toBe('Ren Amer');
    // Nothing here holds the other member's email, the `posts` mirror neither.
    expect(JSON.stringify(await db.posts.toArray())).not.toContain('renamer@example.com');
    expect(localStorage.getItem('posts') ?? '').not.toContain('renamer@example.com');
  });

  it.each(['password_changed', 'revoked'] as const)(
    'a session ended by %s (a new password, another device): the first check of the session hears the true reason, not a plain sign-out (issue 59)',
    async (reason) => {
      const server = await startServer();
      const stopped: unknown[] = [];
      const { engine } = await connectedDevice(server, MEMBER, { onSignedOut: (why) => stopped.push(why) });
      await endSessions(server.db, (await server.account(MEMBER)).id, reason);
      await engine.sync();
      const told = reason === 'password_changed' ? ERRORS.password_changed : ERRORS.session_revoked;
      expect(stopped).toEqual([{ title: told.title, description: told.message }]);
    },
  );
});
