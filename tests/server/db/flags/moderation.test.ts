// Moderation and notifications on the server (protocol version 4): reasons of rejections and hides,
// flags (once per member and item, never one's own, seen only by their flagger and admins), their
// settling by a dismissal, a hide or a deletion, notifications that reach only their recipient and
// are read across sessions, pages that never split a change number, older devices' pulls unchanged,
// and the insights route's figures on a forum with known answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInsights } from '../../../../server/db/insights/insights';
import { INSIGHT_DAYS, INSIGHT_WEEKS, weekStart } from '../../../../src/shared/insights';
import { PROTOCOL_VERSION, type WireFlag, type WireNotification, type WirePost } from '../../../../src/shared/protocol';
import { validateFlag, validateReason } from '../../../../src/shared/validation';
import { ERRORS } from '../../../../src/shared/errors';
import {
  Client,
  deletePostOp,
  deleteReplyOp,
  dismissFlagsOp,
  editPostOp,
  flagOp,
  hideReplyOp,
  hidePostOp,
  replyOp,
  likeOp,
  readNotificationsOp,
  rejectOp,
  reviewOp,
  signedIn,
  type Answer,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { allPages } from '../../support/pages';

const resultOf = (answer: Answer) => answer.body.results[0];
const outcome = (answer: Answer) => {
  const result = resultOf(answer);
  return result.status === 'refused' ? result.code : result.status;
};

describe.each(BACKENDS)('moderation on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let author: Client;
  let other: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    author = await signedIn(server.app, 'author@example.com');
    other = await signedIn(server.app, 'other@example.com');
  });
  afterAll(() => server.close());

  async function approvedPost(title = 'An approved post'): Promise<number> {
    const postId = await author.createPost(title);
    expect(outcome(await admin.push(reviewOp(postId)))).toBe('applied');
    return postId;
  }
  async function pulled(client: Client, protocol = PROTOCOL_VERSION) {
    const answer = await client.pull(0, 1000, protocol);
    expect(answer.status).toBe(200);
    return answer.body as { posts: WirePost[]; notifications: WireNotification[]; flags: WireFlag[] };
  }
  const postIn = async (client: Client, postId: number) => (await pulled(client)).posts.find((post) => post.id === postId);
  const notificationsOf = async (client: Client, postId: number) =>
    (await pulled(client)).notifications.filter((notification) => notification.postId === postId);
  const flagsOn = async (client: Client, postId: number) => (await pulled(client)).flags.filter((flag) => flag.postId === postId);
  async function row(sql: string, params: unknown[]) {
    const [found] = await server.db.query(sql, params);
    return found!;
  }

  it('a rejection keeps its trimmed reason for the author and admins only; the author is told, with the reason', async () => {
    const postId = await author.createPost('To be rejected');
    const result = resultOf(await admin.push(rejectOp(postId, '  Please add sources.  ')));
    expect(result).toMatchObject({ status: 'applied', post: { status: 'rejected', reason: 'Please add sources.' } });
    expect((await postIn(author, postId))!.reason).toBe('Please add sources.');
    expect((await postIn(admin, postId))!.reason).toBe('Please add sources.');
    const stored = await row('SELECT reason, submitted_at, reviewed_at FROM posts WHERE id = $1', [postId]);
    expect(Number(stored.reviewed_at)).toBeGreaterThanOrEqual(Number(stored.submitted_at));
    expect(await notificationsOf(author, postId)).toMatchObject([
      { kind: 'rejected', reason: 'Please add sources.', postTitle: 'To be rejected', actor: null, readAt: null },
    ]);
    expect(await notificationsOf(other, postId)).toEqual([]);
    expect(await notificationsOf(admin, postId)).toEqual([]);
    // Resubmitted by an edit: pending again, its reason gone, in the queue from now.
    const before = Date.now();
    const edited = resultOf(await author.push(editPostOp(postId, 'rejected', { title: 'Sources added' })));
    expect(edited.post).toMatchObject({ status: 'pending', resubmitted: true, reason: null });
    const resubmitted = await row('SELECT reason, submitted_at FROM posts WHERE id = $1', [postId]);
    expect(resubmitted.reason).toBeNull();
    expect(Number(resubmitted.submitted_at)).toBeGreaterThanOrEqual(before);
    // Approved: no reason, and the author hears of it.
    expect(resultOf(await admin.push(reviewOp(postId))).post).toMatchObject({ status: 'approved', reason: null });
    expect((await notificationsOf(author, postId)).map((n) => n.kind)).toEqual(['rejected', 'approved']);
  });

  it('a rejection without a reason, or with a blank one, stores none; a bad reason is refused with the rule’s sentence', async () => {
    for (const reason of [undefined, null, '', '   ']) {
      const postId = await author.createPost('Rejected without words');
      expect(resultOf(await admin.push(rejectOp(postId, reason))).post).toMatchObject({ status: 'rejected', reason: null });
      expect((await row('SELECT reason FROM posts WHERE id = $1', [postId])).reason).toBeNull();
    }
    const postId = await author.createPost('Rejected with too many words');
    const long = 'x'.repeat(501);
    expect(resultOf(await admin.push(rejectOp(postId, long)))).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: validateReason(long)!.message,
    });
    expect(resultOf(await admin.push(rejectOp(postId, 42)))).toMatchObject({ status: 'refused', code: 'invalid' });
    expect((await row('SELECT status FROM posts WHERE id = $1', [postId])).status).toBe('pending');
    // A member's rejection is refused whatever its reason.
    expect(outcome(await other.push(rejectOp(postId, 'Mine')))).toBe('admins_only');
  });

  it('hidePost: admins only; an approved post becomes rejected with the reason, its flags resolved, its author told', async () => {
    const postId = await approvedPost('To be hidden');
    const flag = resultOf(await other.push(flagOp(postId, null, 'inappropriate')));
    expect(flag.status).toBe('applied');
    const reply = replyOp(postId, 'A reply on a post about to be hidden.');
    expect(outcome(await other.push(reply))).toBe('applied');
    const replyFlag = resultOf(await author.push(flagOp(postId, reply.id, 'spam')));
    expect(replyFlag.status).toBe('applied');
    expect(outcome(await author.push(hidePostOp(postId, 'No')))).toBe('admins_only');
    expect(outcome(await other.push(hidePostOp(postId)))).toBe('admins_only');
    const hidden = resultOf(await admin.push(hidePostOp(postId, ' Breaks rule 3. ')));
    expect(hidden).toMatchObject({ status: 'applied', postId, post: { status: 'rejected', reason: 'Breaks rule 3.' } });
    expect(await postIn(other, postId)).toBeUndefined();
    // Members who could see it get its tombstone (their devices drop it); its author and admins get the post.
    const removedFor = async (client: Client, protocol = PROTOCOL_VERSION) =>
      ((await client.pull(0, 1000, protocol)).body as { removed: { id: number; seq: number }[] }).removed.filter(
        (gone) => gone.id === postId,
      );
    expect(await removedFor(other)).toEqual([{ id: postId, seq: hidden.post.seq }]);
    expect(await removedFor(other, 3)).toEqual([{ id: postId, seq: hidden.post.seq }]);
    expect(await removedFor(author)).toEqual([]);
    expect(await removedFor(admin)).toEqual([]);
    expect((await postIn(admin, postId))!).toMatchObject({ status: 'rejected', reason: 'Breaks rule 3.' });
    expect((await postIn(author, postId))!).toMatchObject({ status: 'rejected', reason: 'Breaks rule 3.' });
    // Each settled flag takes a change number of its own after the post's (a popular post's flags never make one huge page).
    const [ownFlag] = await flagsOn(other, postId);
    expect(ownFlag).toMatchObject({ id: flag.flag.id, state: 'resolved' });
    // Its replies' flags too: no member sees them any more.
    const [replyFlagNow] = await flagsOn(author, postId);
    expect(replyFlagNow).toMatchObject({ id: replyFlag.flag.id, state: 'resolved' });
    const flagSeqs = [ownFlag!.seq, replyFlagNow!.seq];
    expect(new Set(flagSeqs).size).toBe(2);
    expect(flagSeqs.every((seq) => seq > hidden.post.seq && seq <= hidden.seq)).toBe(true);
    expect(hidden.seq).toBe(hidden.post.seq + 2);
    expect(await notificationsOf(author, postId)).toMatchObject([
      { kind: 'approved' },
      { kind: 'replied' },
      { kind: 'postHidden', reason: 'Breaks rule 3.', seq: hidden.post.seq },
    ]);
    expect(await notificationsOf(other, postId)).toEqual([]);
    // Not on the forum any more (or never was); unknown.
    expect(outcome(await admin.push(hidePostOp(postId)))).toBe('not_on_forum');
    expect(outcome(await admin.push(hidePostOp(await author.createPost('Pending'))))).toBe('not_on_forum');
    expect(outcome(await admin.push(hidePostOp(123)))).toBe('not_found');
    expect(resultOf(await admin.push(hidePostOp(await approvedPost(), 'y'.repeat(501))))).toMatchObject({
      code: 'invalid',
      reason: validateReason('y'.repeat(501))!.message,
    });
  });

  it('flag: once per member and item ever, never one’s own, only what the flagger can see, with the rule’s sentences', async () => {
    const postId = await approvedPost('Flag me');
    const reply = await author.reply(postId, 'A reply to flag.');
    const op = flagOp(postId, null, 'other', '  It is an advert.  ');
    const first = await other.push(op);
    expect(resultOf(first)).toMatchObject({
      status: 'applied',
      postId,
      flag: { postId, replyId: null, reason: 'other', text: 'It is an advert.', flagger: 'Other', state: 'open' },
    });
    expect(resultOf(first).flag.flaggerEmail).toBe('other@example.com');
    expect(first.body.cursor).toBeGreaterThanOrEqual(resultOf(first).flag.seq);
    // The same item again, whatever the reason: refused, and nothing written.
    expect(outcome(await other.push(flagOp(postId, null, 'spam')))).toBe('already_flagged');
    // A retry of the same op answers duplicate with the flag.
    const retried = resultOf(await other.push(op));
    expect(retried).toMatchObject({ status: 'duplicate', flag: { id: resultOf(first).id, state: 'open' } });
    // Its reply is another item.
    expect(outcome(await other.push(flagOp(postId, reply.id)))).toBe('applied');
    expect(outcome(await other.push(flagOp(postId, reply.id, 'off-topic')))).toBe('already_flagged');
    expect(Number((await row('SELECT count(*) AS n FROM flags WHERE post_id = $1', [postId])).n)).toBe(2);
    // One's own post or reply.
    expect(outcome(await author.push(flagOp(postId)))).toBe('cannot_flag_own');
    expect(outcome(await author.push(flagOp(postId, reply.id)))).toBe('cannot_flag_own');
    // An admin is a member too: they may flag others' items.
    expect(outcome(await admin.push(flagOp(postId, reply.id, 'spam')))).toBe('applied');
    // What the flagger cannot see: an unknown or pending post, a reply unknown, of another post, or hidden.
    expect(outcome(await other.push(flagOp(123)))).toBe('not_found');
    expect(outcome(await other.push(flagOp(await author.createPost('Still pending'))))).toBe('not_found');
    expect(outcome(await other.push(flagOp(postId, '00000000-0000-4000-8000-000000000000')))).toBe('reply_not_found');
    const elsewhere = await approvedPost('Another post');
    expect(outcome(await other.push(flagOp(elsewhere, reply.id)))).toBe('reply_not_found');
    const hiddenReply = await author.reply(postId, 'Hidden soon.');
    expect(outcome(await admin.push(hideReplyOp(hiddenReply.id)))).toBe('applied');
    expect(outcome(await other.push(flagOp(postId, hiddenReply.id)))).toBe('reply_not_found');
    // Bad input: the rule's sentence.
    expect(resultOf(await other.push(flagOp(elsewhere, null, 'boring')))).toMatchObject({
      code: 'invalid',
      reason: validateFlag('boring', '')!.message,
    });
    expect(resultOf(await other.push(flagOp(elsewhere, null, 'other', '  ')))).toMatchObject({
      code: 'invalid',
      reason: validateFlag('other', '')!.message,
    });
    expect(resultOf(await other.push(flagOp(elsewhere, null, 'spam', 'z'.repeat(501))))).toMatchObject({
      code: 'invalid',
      reason: validateFlag('spam', 'z'.repeat(501))!.message,
    });
    expect(Number((await row('SELECT count(*) AS n FROM flags WHERE post_id = $1', [elsewhere])).n)).toBe(0);
  });

  it('members see only their own flags; admins see every flag, with the flagger', async () => {
    const postId = await approvedPost('Flagged by two');
    const third = await signedIn(server.app, 'third@example.com');
    expect(outcome(await other.push(flagOp(postId, null, 'spam')))).toBe('applied');
    expect(outcome(await third.push(flagOp(postId, null, 'off-topic')))).toBe('applied');
    expect((await flagsOn(other, postId)).map((flag) => flag.flaggerEmail)).toEqual(['other@example.com']);
    expect((await flagsOn(third, postId)).map((flag) => flag.flaggerEmail)).toEqual(['third@example.com']);
    expect(await flagsOn(author, postId)).toEqual([]);
    expect((await flagsOn(admin, postId)).map((flag) => [flag.flagger, flag.reason]).sort()).toEqual([
      ['Other', 'spam'],
      ['Third', 'off-topic'],
    ]);
    // No other member's flag, in any form, reaches a member's pull.
    expect(JSON.stringify((await third.pull()).body)).not.toContain('other@example.com');
  });

  it('dismissFlags: admins only; the item’s open flags become dismissed under a new change number', async () => {
    const postId = await approvedPost('Flagged, then dismissed');
    const reply = await author.reply(postId);
    const onPost = resultOf(await other.push(flagOp(postId)));
    const onReply = resultOf(await other.push(flagOp(postId, reply.id)));
    expect(outcome(await other.push(dismissFlagsOp(postId)))).toBe('admins_only');
    expect(outcome(await author.push(dismissFlagsOp(postId)))).toBe('admins_only');
    const dismissed = await admin.push(dismissFlagsOp(postId));
    expect(outcome(dismissed)).toBe('applied');
    const flags = await flagsOn(other, postId);
    const post = flags.find((flag) => flag.id === onPost.flag.id)!;
    expect(post.state).toBe('dismissed');
    expect(post.seq).toBeGreaterThan(onReply.flag.seq);
    expect(dismissed.body.cursor).toBeGreaterThanOrEqual(post.seq);
    // The reply's flag is another item's: still open until its own dismissal.
    expect(flags.find((flag) => flag.id === onReply.flag.id)!.state).toBe('open');
    expect(outcome(await admin.push(dismissFlagsOp(postId, reply.id)))).toBe('applied');
    expect((await flagsOn(other, postId)).map((flag) => flag.state)).toEqual(['dismissed', 'dismissed']);
  });

  it('hiding or deleting a reply, and deleting a post, resolve their open flags; the hidden reply’s author is told', async () => {
    const postId = await approvedPost('Settled by removal');
    const hiddenReply = await author.reply(postId, 'To be hidden.');
    const deletedReply = await author.reply(postId, 'To be deleted by its author.');
    const leftReply = await author.reply(postId, 'Left until the post goes.');
    for (const target of [hiddenReply.id, deletedReply.id, leftReply.id, null]) {
      expect(outcome(await other.push(flagOp(postId, target)))).toBe('applied');
    }
    const hide = resultOf(await admin.push(hideReplyOp(hiddenReply.id)));
    expect(outcome(await author.push(deleteReplyOp(deletedReply.id)))).toBe('applied');
    const stateOf = async (replyId: string | null) => (await flagsOn(admin, postId)).find((flag) => flag.replyId === replyId)!;
    expect(await stateOf(hiddenReply.id)).toMatchObject({ state: 'resolved', seq: hide.reply.seq + 1 });
    expect(hide.seq).toBe(hide.reply.seq + 1);
    expect((await stateOf(deletedReply.id)).state).toBe('resolved');
    expect((await stateOf(leftReply.id)).state).toBe('open');
    expect((await stateOf(null)).state).toBe('open');
    expect((await notificationsOf(author, postId)).filter((n) => n.kind === 'replyHidden')).toMatchObject([
      { replyId: hiddenReply.id, actor: null, seq: hide.reply.seq },
    ]);
    // An admin who deletes someone's reply settles its flags too.
    const adminDeleted = await author.reply(postId, 'Deleted by an admin.');
    expect(outcome(await other.push(flagOp(postId, adminDeleted.id)))).toBe('applied');
    expect(outcome(await admin.push(deleteReplyOp(adminDeleted.id)))).toBe('applied');
    expect((await stateOf(adminDeleted.id)).state).toBe('resolved');
    // Deleting the post settles its own flags and its replies'.
    expect(outcome(await author.push(deletePostOp(postId)))).toBe('applied');
    const settled = await flagsOn(admin, postId);
    expect(settled.length).toBe(5);
    expect(settled.every((flag) => flag.state === 'resolved')).toBe(true);
  });

  it('notifications reach only their recipient: replied and quoted; none for what one did oneself', async () => {
    const postId = await approvedPost('A conversation');
    const third = await signedIn(server.app, 'third@example.com');
    const quotedReply = await third.reply(postId, 'Worth quoting.');
    const quoting = await other.reply(postId, 'Quoting it.', quotedReply.id);
    const answer = await author.reply(postId, 'The author answers on their own post.');
    expect((await notificationsOf(author, postId)).map((n) => [n.kind, n.actor, n.replyId])).toEqual([
      ['approved', null, null],
      ['replied', 'Third', quotedReply.id],
      ['replied', 'Other', quoting.id],
    ]);
    // Replying made Third and Other watch the post (issue 62): the author's answer tells them both,
    // and Third, quoted (and watching), hears of Other's reply once, as quoted.
    expect((await notificationsOf(third, postId)).map((n) => [n.kind, n.actor, n.replyId])).toEqual([
      ['quoted', 'Other', quoting.id],
      ['watching', 'Author', answer.id],
    ]);
    expect((await notificationsOf(other, postId)).map((n) => [n.kind, n.actor, n.replyId])).toEqual([['watching', 'Author', answer.id]]);
    expect(await notificationsOf(admin, postId)).toEqual([]);
    const titles = (await pulled(third)).notifications.map((n) => n.postTitle);
    expect(titles).toEqual(['A conversation', 'A conversation']);
    // A sample post's author has no account one can sign in to: a reply to it notifies no one.
    const [sample] = await server.db.query(
      `SELECT id FROM posts WHERE status = 'approved' AND author_email IN (SELECT email FROM users WHERE password_hash = '') LIMIT 1`,
    );
    await other.reply(Number(sample!.id), 'On a sample post.');
    expect(Number((await row('SELECT count(*) AS n FROM notifications WHERE post_id = $1', [sample!.id])).n)).toBe(0);
  });

  it('readNotifications in one session shows read in another session’s pull; others’ ids change nothing', async () => {
    const postId = await approvedPost('Read me');
    await other.reply(postId, 'One.');
    await other.reply(postId, 'Two.');
    const phone = await signedIn(server.app, 'author@example.com');
    const mine = await notificationsOf(author, postId);
    expect(mine.map((n) => n.readAt)).toEqual([null, null, null]);
    // Another member's notification: their post approved.
    const strangersPost = await other.createPost('The other member’s post');
    await admin.push(reviewOp(strangersPost));
    const strangerIds = (await notificationsOf(other, strangersPost)).map((n) => n.id);
    expect(strangerIds.length).toBe(1);
    const before = Date.now();
    const read = await phone.push(readNotificationsOp([mine[0]!.id, mine[1]!.id, ...strangerIds]));
    expect(resultOf(read)).toEqual({ id: resultOf(read).id, status: 'applied', seq: expect.any(Number) });
    // As pulled from the author's first session, each by its id (a read one has a new change number).
    const now = await notificationsOf(author, postId);
    const after = mine.map((notification) => now.find((n) => n.id === notification.id)!);
    expect(after[0]!.readAt).toBeGreaterThanOrEqual(before);
    expect(after[1]!.readAt).toBe(after[0]!.readAt);
    expect(after[2]!.readAt).toBeNull();
    expect(after[0]!.seq).toBeGreaterThan(mine[2]!.seq);
    expect(read.body.cursor).toBeGreaterThanOrEqual(after[0]!.seq);
    // From the author's first session, a pull after its cursor brings the change.
    const changed = (await author.pull(mine[2]!.seq)).body.notifications as WireNotification[];
    expect(changed.map((n) => n.id).sort()).toEqual([mine[0]!.id, mine[1]!.id].sort());
    // The other member's notification is untouched, and reading again changes nothing more.
    expect((await notificationsOf(other, strangersPost)).map((n) => n.readAt)).toEqual([null]);
    expect(outcome(await phone.push(readNotificationsOp([mine[0]!.id])))).toBe('applied');
    expect((await notificationsOf(author, postId)).find((n) => n.id === mine[0]!.id)!.readAt).toBe(after[0]!.readAt);
  });

  it('pages never split a change number, with notifications and flags among the rows; every size gives the same rows', async () => {
    const postId = await approvedPost('Paged');
    for (let i = 0; i < 3; i += 1) await other.reply(postId, `Reply ${i}.`);
    await other.push(flagOp(postId));
    await admin.push(hidePostOp(postId, 'Paged away.'));
    for (const client of [author, admin, other]) {
      const whole = await pulled(client);
      const key = (page: { posts: WirePost[]; notifications: WireNotification[]; flags: WireFlag[] }) => ({
        posts: page.posts.map((post) => `${post.id}:${post.seq}`).sort(),
        notifications: page.notifications.map((n) => `${n.id}:${n.seq}`).sort(),
        flags: page.flags.map((flag) => `${flag.id}:${flag.seq}`).sort(),
      });
      for (const limit of [1, 2, 3, 7]) {
        const pages = await allPages(client, 0, limit);
        const merged = {
          posts: pages.flatMap((page) => page.posts),
          notifications: pages.flatMap((page) => page.notifications ?? []),
          flags: pages.flatMap((page) => page.flags ?? []),
        };
        expect(key(merged)).toEqual(key(whole));
        // No change number on two pages.
        const seqsOf = pages.map(
          (page) =>
            new Set([...page.posts, ...(page.replies ?? []), ...(page.notifications ?? []), ...(page.flags ?? [])].map((r) => r.seq)),
        );
        for (let i = 1; i < seqsOf.length; i += 1) {
          for (const seq of seqsOf[i]!) expect(seqsOf.slice(0, i).some((earlier) => earlier.has(seq))).toBe(false);
        }
      }
    }
  });

  it('older devices: a version-3 pull has exactly its keys, and posts without reason', async () => {
    const postId = await author.createPost('Rejected for an old device');
    await admin.push(rejectOp(postId, 'Old devices never see this.'));
    await other.push(flagOp(await approvedPost()));
    for (const [protocol, keys] of [
      [3, ['cursor', 'more', 'posts', 'removed', 'replies']],
      [2, ['cursor', 'more', 'posts', 'replies']],
      [1, ['cursor', 'more', 'posts']],
    ] as const) {
      for (const client of [author, admin]) {
        const body = (await client.pull(0, 1000, protocol)).body;
        expect(Object.keys(body).sort()).toEqual(keys);
        const post = body.posts.find((candidate: WirePost) => candidate.id === postId);
        expect(post.status).toBe('rejected');
        expect(Object.keys(post)).not.toContain('reason');
        expect(JSON.stringify(body)).not.toContain('Old devices never see this.');
      }
    }
  });

  it('GET /api/insights: admins only, readable JSON errors', async () => {
    expect(await other.request('GET', '/api/insights')).toMatchObject({
      status: 403,
      body: { error: { code: 'admins_only', message: ERRORS.admins_only.message } },
    });
    expect(await new Client(server.app).request('GET', '/api/insights')).toMatchObject({
      status: 401,
      body: { error: { code: 'signed_out' } },
    });
    const answer = await admin.request('GET', '/api/insights');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatchObject({ source: 'server' });
    expect(answer.body.perWeek).toHaveLength(INSIGHT_WEEKS);
    expect(answer.body.queue).toHaveLength(INSIGHT_DAYS);
  });
});

describe.each(BACKENDS)('insights on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend);
  });
  afterAll(() => server.close());

  it('counts a seeded forum with known answers: categories, weeks, likes per day, review times and the queue', async () => {
    await server.db.query('DELETE FROM replies');
    await server.db.query('DELETE FROM posts');
    await server.db.query('DELETE FROM like_days');
    const DAY = 86_400_000;
    const HOUR = 3_600_000;
    const now = Date.now();
    const thisWeek = weekStart(now);
    // Last week is wholly past whatever the time now: its posts' reviews are all done by now.
    const lastWeek = thisWeek - 7 * DAY;
    // id, category, status, submitted (ms), reviewed after (hours)
    const seeded: [number, string, string, number | null, number | null][] = [
      [1, 'Trends', 'approved', lastWeek + HOUR, 1],
      [2, 'Trends', 'approved', lastWeek + HOUR, 3],
      [3, 'Trends', 'rejected', lastWeek - 7 * DAY + HOUR, 2],
      [4, 'Technology', 'pending', lastWeek + HOUR, null],
      [5, 'Technology', 'approved', null, null],
      [6, 'Technology', 'approved', thisWeek - 30 * 7 * DAY, 10],
    ];
    for (const [id, category, status, submitted, reviewedAfter] of seeded) {
      await server.db.query(
        `INSERT INTO posts (id, title, content, category, author, author_email, author_role, date, status, seq, submitted_at, reviewed_at)
         VALUES ($1, 't', 'c', $2, 'a', 'a@example.com', 'user', 'today', $3, 1, $4::bigint, $5::bigint)`,
        [id, category, status, submitted, submitted !== null && reviewedAfter !== null ? submitted + reviewedAfter * HOUR : null],
      );
    }
    // Likes through the trigger: 5 on approved posts today; a like day 13 weeks ago is out of reach.
    await server.db.query('UPDATE posts SET likes = likes + 2 WHERE id IN (1, 2)');
    await server.db.query('UPDATE posts SET likes = likes + 1 WHERE id = 5');
    await server.db.query('UPDATE posts SET likes = 0 WHERE id = 5'); // a decrease counts nothing
    const old = new Date(thisWeek - 13 * 7 * DAY).toISOString().slice(0, 10);
    await server.db.query('INSERT INTO like_days (day, likes) VALUES ($1::date, 100)', [old]);
    const today = new Date(now).toISOString().slice(0, 10);
    expect(await server.db.query('SELECT to_char(day, $1) AS day, likes FROM like_days ORDER BY day', ['YYYY-MM-DD'])).toEqual([
      { day: old, likes: expect.anything() },
      { day: today, likes: expect.anything() },
    ]);
    const insights = await readInsights(server.db, now);
    const byCategory = Object.fromEntries(insights.postsPerCategory.map((entry) => [entry.category, entry]));
    expect(byCategory.Trends).toMatchObject({ posts: 3, approved: 2 });
    expect(byCategory.Technology).toMatchObject({ posts: 3, approved: 2 });
    const weeks = insights.perWeek.slice(-3);
    expect(weeks).toEqual([
      { week: new Date(lastWeek - 7 * DAY).toISOString().slice(0, 10), posts: 1, likes: 0 },
      { week: new Date(lastWeek).toISOString().slice(0, 10), posts: 3, likes: 0 },
      { week: new Date(thisWeek).toISOString().slice(0, 10), posts: 0, likes: 5 },
    ]);
    expect(insights.perWeek.reduce((sum, week) => sum + week.posts, 0)).toBe(4);
    expect(insights.perWeek.reduce((sum, week) => sum + week.likes, 0)).toBe(5);
    // Reviewed: 1h, 2h, 3h, 10h (post 5 has no times; post 4 is pending): median 2h, p90 10h.
    expect(insights.reviewTime).toEqual({ reviewed: 4, medianMs: 2 * HOUR, p90Ms: 10 * HOUR });
    // Now: post 4 waits.
    expect(insights.queue[INSIGHT_DAYS - 1]!.pending).toBe(1);
    // And the route answers the same figures, checked by the shared schema.
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const answer = await admin.request('GET', '/api/insights');
    expect(answer.body.postsPerCategory).toEqual(insights.postsPerCategory);
    expect(answer.body.reviewTime).toEqual(insights.reviewTime);
  });

  it('a like pushed by a member is counted on today’s like day', async () => {
    const member = await signedIn(server.app, 'liker@example.com');
    const before = Number(
      (await server.db.query(`SELECT coalesce(sum(likes), 0) AS n FROM like_days WHERE day = (now() AT TIME ZONE 'UTC')::date`))[0]!.n,
    );
    const [post] = await server.db.query(`SELECT id FROM posts WHERE status = 'approved' LIMIT 1`);
    expect(outcome(await member.push(likeOp(Number(post!.id), 3)))).toBe('applied');
    const after = Number(
      (await server.db.query(`SELECT coalesce(sum(likes), 0) AS n FROM like_days WHERE day = (now() AT TIME ZONE 'UTC')::date`))[0]!.n,
    );
    expect(after - before).toBe(3);
  });
});
