// Safe with strangers (issue 39), on both engines: a member's email never reaches another member,
// names cannot pose as someone else, and the admin can stop a member (Suspend, Silence, Delete
// spammer), every staff action in the staff log. Each break the issue found is a test here that
// fails on the code before it.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId } from '../../../../src/shared/members';
import { ERRORS } from '../../../../src/shared/errors';
import { PROTOCOL_VERSION, type Op } from '../../../../src/shared/protocol';
import { changeHead } from '../../../../server/db/sync/changes';
import {
  Client,
  closePollOp,
  createOp,
  deleteReplyOp,
  deletePostOp,
  editPostOp,
  flagOp,
  hidePostOp,
  likeOp,
  POLL,
  replyOp,
  reviewOp,
  signedIn,
  TEST_PASSWORD,
  voteOp,
  type Answer,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { listen, testServer, type TestServer } from '../../support/app';
import { allPages } from '../../support/pages';
import { openEventStream } from '../../support/sse';

const resultOf = (answer: Answer) => answer.body.results[0];
const outcome = (answer: Answer) => {
  const result = resultOf(answer);
  return result.status === 'applied' || result.status === 'duplicate' ? result.status : result.code;
};
const suspendOp = (memberId: string, until: number | null, reason?: string): Op =>
  ({ id: randomUUID(), type: 'suspendMember', memberId, until, ...(reason === undefined ? {} : { reason }) }) as Op;
const silenceOp = (memberId: string, silenced = true): Op => ({ id: randomUUID(), type: 'silenceMember', memberId, silenced }) as Op;
const spammerOp = (memberId: string): Op => ({ id: randomUUID(), type: 'deleteSpammer', memberId }) as Op;

/** The public id of the client's member (their session says it). */
const idOf = async (client: Client): Promise<string> => (await client.request('GET', '/api/session')).body.user.id;

describe.each(BACKENDS)('safe with strangers on %s', (backend) => {
  let server: TestServer;
  let base: string;
  let admin: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    base = await listen(server);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  async function approvedPost(author: Client, title: string): Promise<number> {
    const id = await author.createPost(title);
    expect(outcome(await admin.push(reviewOp(id)))).toBe('applied');
    return id;
  }

  it('a member’s device never receives another member’s email: posts, replies, notifications, flags, any protocol', async () => {
    const alice = await signedIn(server.app, 'alice.private@example.com');
    const bob = await signedIn(server.app, 'bob.private@example.com');
    const postId = await approvedPost(alice, 'Whose email is this');
    const bobsReply = await bob.reply(postId, 'Bob answers.');
    await alice.reply(postId, 'Alice quotes Bob.', bobsReply.id);
    expect(outcome(await bob.push(flagOp(postId)))).toBe('applied');
    for (const protocol of [1, 2, 3, 4, 5, PROTOCOL_VERSION]) {
      const pulled = JSON.stringify((await bob.pull(0, 1000, protocol)).body);
      expect(pulled, `protocol ${protocol}`).not.toContain('alice.private@example.com');
      if (protocol >= 2) expect(pulled).toContain('bob.private@example.com'); // their own reply keeps theirs
    }
    const page = (await bob.pull(0, 1000)).body;
    const post = page.posts.find((one: { id: number }) => one.id === postId);
    expect(post).toMatchObject({ authorEmail: '', author: 'Alice Private', authorId: await idOf(alice) });
    expect(page.notifications.find((one: { kind: string }) => one.kind === 'quoted')).toMatchObject({
      actor: 'Alice Private',
      actorId: await idOf(alice),
      actorRole: 'user',
    });
    // The admin reads every email; a push's answer and a search carry the email to its author only.
    expect(JSON.stringify((await admin.pull(0, 1000)).body)).toContain('alice.private@example.com');
    const liked = resultOf(await bob.push(likeOp(postId)));
    expect(liked.post.authorEmail).toBe('');
    const found = (await bob.request('GET', '/api/search?q=Whose')).body;
    expect(JSON.stringify(found)).not.toContain('alice.private@example.com');
    // Guessing an email's id tells nothing: the page of an id worked out from an email is as nobody's.
    const guessed = await bob.request('GET', `/api/members/${memberId('alice.private@example.com')}`);
    const nobody = await bob.request('GET', '/api/members/0123456789abcdef');
    expect(guessed.status).toBe(404);
    expect(guessed.body).toEqual(nobody.body);
    expect((await bob.request('GET', `/api/members/${await idOf(alice)}`)).status).toBe(200);
  });

  it('names cannot pose as someone else: Admin, a taken name in any case or width, invisible and bidi characters', async () => {
    const first = new Client(server.app);
    expect((await first.join('taken.name@example.com', TEST_PASSWORD, 'Morgan Reyes')).status).toBe(200);
    const attempts: [string, string, string][] = [
      ['Admin', 'invalid', 'This name is kept for the forum’s staff. Choose another one.'],
      ['ADMIN', 'invalid', 'This name is kept for the forum’s staff. Choose another one.'],
      ['Site Moderator', 'invalid', 'This name is kept for the forum’s staff. Choose another one.'],
      ['Insight Exchange', 'invalid', 'This name is kept for the forum’s staff. Choose another one.'],
      ['morgan reyes', 'name_taken', ERRORS.name_taken.message],
      ['ＭＯＲＧＡＮ ＲＥＹＥＳ', 'name_taken', ERRORS.name_taken.message],
      [
        'Morgan\u200B Reyes',
        'invalid',
        'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
      ],
      [
        '\u202Esey eR nagroM',
        'invalid',
        'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
      ],
      ['\u200B\u200B\u200B', 'invalid', 'Please fill all fields.'],
    ];
    for (const [name, code, message] of attempts) {
      const answer = await new Client(server.app).signIn(`posing-${randomUUID().slice(0, 8)}@example.com`, TEST_PASSWORD, 'signup', name);
      expect(answer.body.error, JSON.stringify(name)).toEqual({ code, message });
    }
    // The same rules on a rename.
    const other = await signedIn(server.app, 'would.be.chief@example.com');
    expect(outcome(await other.push({ id: randomUUID(), type: 'rename', name: 'Admin' } as Op))).toBe('invalid');
    expect(outcome(await other.push({ id: randomUUID(), type: 'rename', name: 'MORGAN REYES' } as Op))).toBe('name_taken');
  });

  it('a title or a text of only invisible characters is blank: refused with the sentence', async () => {
    const writer = await signedIn(server.app, 'blank.writer@example.com');
    const refusal = resultOf(await writer.push(createOp('\u200B', { content: 'Real content.' })));
    expect(refusal).toMatchObject({ status: 'refused', code: 'invalid', reason: 'Please fill in both title and content for your post.' });
    const postId = await approvedPost(writer, 'A real title');
    expect(resultOf(await writer.push(replyOp(postId, '\u200B\u200D\u2060')))).toMatchObject({ code: 'invalid' });
  });

  it('the admin’s name carries the Admin role wherever an author is shown (posts, replies, member page)', async () => {
    const reader = await signedIn(server.app, 'badge.reader@example.com');
    const postId = await admin.createPost('From the staff');
    await admin.push(reviewOp(postId));
    await admin.reply(postId, 'And a word from the staff.');
    const page = (await reader.pull(0, 1000)).body;
    expect(page.posts.find((post: { id: number }) => post.id === postId)).toMatchObject({ author: 'Admin', authorRole: 'admin' });
    expect(page.replies.find((reply: { postId: number }) => reply.postId === postId)).toMatchObject({ authorRole: 'admin' });
    expect((await reader.request('GET', `/api/members/${await idOf(admin)}`)).body).toMatchObject({ role: 'admin' });
  });

  it('Suspend: admins only; the member’s sessions end on the server and their live stream closes; signing in says why and until when; lifting it lets them back', async () => {
    const member = await signedIn(server.app, 'suspended.member@example.com');
    const elsewhere = await signedIn(server.app, 'suspended.member@example.com');
    const id = await idOf(member);
    const stream = await openEventStream(base, elsewhere.cookie!);
    await stream.nextCursor(() => true);
    const until = Date.now() + 3 * 24 * 60 * 60 * 1000;
    // Only admins; a reason is needed; the end must be in the future; not the staff.
    expect(outcome(await member.push(suspendOp(id, until, 'Spam.')))).toBe('admins_only');
    expect(outcome(await admin.push(suspendOp(id, until)))).toBe('invalid');
    expect(outcome(await admin.push(suspendOp(id, Date.now() - 1000, 'Spam.')))).toBe('invalid');
    expect(outcome(await admin.push(suspendOp(await idOf(admin), until, 'No.')))).toBe('staff_member');
    expect(outcome(await admin.push(suspendOp('0123456789abcdef', until, 'Nobody.')))).toBe('member_not_found');
    expect(outcome(await admin.push(suspendOp(id, until, ' Posting ads. ')))).toBe('applied');
    await stream.ended();
    const when = new Date(until).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
    // The server words it in UTC (it knows no reader's zone); the end and reason ride along for the device.
    const told = {
      code: 'suspended',
      message: `Your account is suspended until ${when} UTC. Reason: Posting ads.`,
      until,
      reason: 'Posting ads.',
    };
    for (const device of [member, elsewhere]) {
      expect(await device.request('GET', '/api/session')).toMatchObject({ status: 403, body: { error: told } });
      expect(await device.pull()).toMatchObject({ status: 403, body: { error: told } });
    }
    // Signing in with the right password says why; a wrong one says nothing more than to anyone.
    expect((await new Client(server.app).join('suspended.member@example.com')).body.error).toEqual(told);
    expect((await new Client(server.app).signIn('suspended.member@example.com', 'not-the-password')).body.error.code).toBe(
      'bad_credentials',
    );
    expect(outcome(await admin.push(suspendOp(id, null)))).toBe('applied');
    // Lifted: the ended sessions stay ended (signed out), a new sign-in works.
    expect((await member.request('GET', '/api/session')).body.error.code).toBe('signed_out');
    expect((await new Client(server.app).join('suspended.member@example.com')).status).toBe(200);
  });

  it('Silence: the member reads but every write is refused `silenced`; their devices pull it; Unsilence lets them write', async () => {
    const member = await signedIn(server.app, 'silenced.member@example.com');
    const postId = await approvedPost(member, 'Written before the silence');
    const pollId = await member.createPost('Polled before the silence', POLL);
    const id = await idOf(member);
    expect(outcome(await member.push(silenceOp(id)))).toBe('admins_only');
    expect(outcome(await admin.push(silenceOp(id)))).toBe('applied');
    const own = (await member.pull(0, 1000)).body;
    expect(own.preferences).toMatchObject({ silenced: true });
    for (const op of [
      createOp('Silenced post'),
      replyOp(postId, 'Silenced reply'),
      likeOp(postId),
      flagOp(postId),
      editPostOp(postId, 'approved'),
      voteOp(postId),
      closePollOp(pollId),
      { id: randomUUID(), type: 'rename', name: 'Silenced Name' } as Op,
    ]) {
      const refused = resultOf(await member.push(op));
      expect(refused, op.type).toMatchObject({ status: 'refused', code: 'silenced', reason: ERRORS.silenced.message });
    }
    // Nor a file: the upload route asks the same rule, before reading the bytes.
    const bytes = Buffer.from('A silenced member’s notes.');
    const upload = await member.request('PUT', `/api/attachments/${createHash('sha256').update(bytes).digest('hex')}`, bytes, {
      'content-type': 'application/octet-stream',
      'x-file-name': 'notes.txt',
    });
    expect(upload.status).toBe(403);
    expect(upload.body.error).toEqual({ code: 'silenced', message: ERRORS.silenced.message });
    // Reading, saving and removing their own writing stay theirs.
    expect((await member.pull(0, 1000)).status).toBe(200);
    expect(outcome(await member.push({ id: randomUUID(), type: 'view', postId } as Op))).toBe('applied');
    expect(outcome(await admin.push(silenceOp(id, false)))).toBe('applied');
    expect((await member.pull(0, 1000)).body.preferences).toMatchObject({ silenced: false });
    expect(outcome(await member.push(replyOp(postId, 'Back to writing.')))).toBe('applied');
    // Issue 59: with a reason and an end, both pulled by the member's devices; at the end, they write again (isSilencedAt).
    const until = Date.now() + 2 * 24 * 60 * 60 * 1000;
    expect(outcome(await admin.push({ ...silenceOp(id), reason: 'Off-topic ads', until } as Op))).toBe('applied');
    expect((await member.pull(0, 1000)).body.preferences).toMatchObject({
      silenced: true,
      silenceReason: 'Off-topic ads',
      silencedUntil: until,
    });
    expect(resultOf(await member.push(replyOp(postId, 'Still silenced.')))).toMatchObject({ code: 'silenced' });
    expect(resultOf(await member.push(likeOp(postId)))).toMatchObject({ code: 'silenced' });
    await server.db.query('UPDATE users SET silenced_until = $2 WHERE member_id = $1', [id, Date.now() - 1]);
    expect(outcome(await member.push(replyOp(postId, 'The silence ended at its date.')))).toBe('applied');
    expect(outcome(await member.push(likeOp(postId)))).toBe('applied');
  });

  it('Delete spammer: every post and reply leaves every device, one change number per row (pages within the limit); the account is closed', async () => {
    const spammer = await signedIn(server.app, 'spam.bot@example.com');
    const reader = await signedIn(server.app, 'spam.reader@example.com');
    const victim = await approvedPost(reader, 'A post the spammer replies to');
    const posts: number[] = [];
    for (let index = 0; index < 6; index += 1) posts.push(await approvedPost(spammer, `Buy now ${index}`));
    const pending = await spammer.createPost('Pending spam');
    const replies: string[] = [];
    for (let index = 0; index < 4; index += 1) replies.push((await spammer.reply(victim, `Spam reply ${index}`)).id);
    expect(outcome(await reader.push(flagOp(posts[0]!)))).toBe('applied');
    const cursor = (await reader.pull(0, 1000)).body.cursor;
    const id = await idOf(spammer);
    const head = await changeHead(server.db);
    const deleted = resultOf(await admin.push(spammerOp(id)));
    expect(deleted).toMatchObject({ status: 'applied' });
    // 7 posts (with the pending one), 4 replies, the victim's count, the flag: each its own number.
    expect(await changeHead(server.db)).toBe(head + 13);
    expect(deleted.seq).toBe(head + 13);
    const pages = await allPages(reader, cursor, 2);
    expect(pages.every((page) => page.posts.length + (page.replies ?? []).length + (page.removed ?? []).length <= 2)).toBe(true);
    const removed = pages.flatMap((page) => page.removed ?? []).map((gone) => gone.id);
    expect(removed.sort()).toEqual([...posts].sort());
    const gone = pages.flatMap((page) => page.replies ?? []).filter((reply) => replies.includes(reply.id));
    expect(gone.map((reply) => reply.state)).toEqual(['deleted', 'deleted', 'deleted', 'deleted']);
    expect(pages.flatMap((page) => page.posts).find((post) => post.id === victim)).toMatchObject({ comments: 0 });
    expect((await admin.pull(0, 1000)).body.posts.some((post: { id: number }) => post.id === pending)).toBe(false);
    // The account is closed: its sessions and any sign-in say so; a second delete finds nobody.
    expect((await spammer.request('GET', '/api/session')).body.error).toEqual({
      code: 'account_closed',
      message: ERRORS.account_closed.message,
    });
    expect((await new Client(server.app).join('spam.bot@example.com')).body.error.code).toBe('account_closed');
    expect(outcome(await admin.push(spammerOp(id)))).toBe('member_not_found');
    expect((await reader.request('GET', `/api/members/${id}`)).status).toBe(404);
  });

  it('the staff log: reviews, hides, an admin’s deletion of another member’s post, suspensions, silences; admins only', async () => {
    const member = await signedIn(server.app, 'logged.member@example.com');
    const id = await idOf(member);
    const postId = await member.createPost('Reviewed for the log');
    expect(outcome(await admin.push(reviewOp(postId)))).toBe('applied');
    expect(outcome(await admin.push(hidePostOp(postId, 'Off topic.')))).toBe('applied');
    const other = await approvedPost(member, 'Deleted by the admin');
    expect(outcome(await admin.push(deletePostOp(other)))).toBe('applied');
    const own = await admin.createPost('The admin’s own, deleted');
    expect(outcome(await admin.push(deletePostOp(own)))).toBe('applied');
    const reply = await member.reply(await approvedPost(member, 'With a reply'), 'A reply the admin deletes.');
    expect(outcome(await admin.push(deleteReplyOp(reply.id)))).toBe('applied');
    const until = Date.now() + 60 * 60 * 1000;
    expect(outcome(await admin.push(suspendOp(id, until, 'Cooling off.')))).toBe('applied');
    expect(outcome(await admin.push(silenceOp(id)))).toBe('applied');
    expect((await member.request('GET', '/api/admin/log')).status).toBe(403);
    const log = (await admin.request('GET', '/api/admin/log')).body;
    const mine = log.entries.filter((entry: { member: { id: string } | null }) => entry.member?.id === id);
    expect(mine.map((entry: { action: string }) => entry.action)).toEqual([
      'silenceMember',
      'suspendMember',
      'deleteReply',
      'approve',
      'deletePost',
      'approve',
      'hidePost',
      'approve',
    ]);
    expect(mine[1]).toMatchObject({ reason: 'Cooling off.', detail: { until }, actor: { name: 'Admin' } });
    expect(mine.find((entry: { action: string }) => entry.action === 'hidePost')).toMatchObject({
      title: 'Reviewed for the log',
      reason: 'Off topic.',
      postId,
    });
    // The admin deleting their own post is not a staff action.
    expect(log.entries.some((entry: { postId: number | null }) => entry.postId === own)).toBe(false);
  });
});

describe('the admin’s reads of protocol 6', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  it('Find a member by name or email (their email is the admin’s to see); one member’s posts, replies and flags', async () => {
    const admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const member = await signedIn(server.app, 'findable.person@example.com');
    const postId = await member.createPost('Findable post');
    await admin.push(reviewOp(postId));
    await member.reply(postId, 'Findable reply');
    const byName = (await admin.request('GET', '/api/admin/members?q=FINDABLE')).body.members;
    expect(byName).toMatchObject([
      { name: 'Findable Person', email: 'findable.person@example.com', posts: 1, replies: 1, silenced: false },
    ]);
    expect((await admin.request('GET', '/api/admin/members?q=person@example')).body.members).toHaveLength(1);
    // A NUL (PostgreSQL refuses one in any query) is refused in words, never a 500 (a fourth attack test).
    expect(await admin.request('GET', '/api/admin/members?q=find%00able')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid', message: 'A search for a member cannot hold control characters.' } },
    });
    const detail = (await admin.request('GET', `/api/admin/members/${byName[0].id}`)).body;
    expect(detail.posts).toMatchObject([{ id: postId, title: 'Findable post', status: 'approved' }]);
    expect(detail.replies).toMatchObject([{ postId, excerpt: 'Findable reply' }]);
    for (const path of ['/api/admin/members', `/api/admin/members/${byName[0].id}`, '/api/admin/limits']) {
      expect((await member.request('GET', path)).status, path).toBe(403);
    }
    expect((await admin.request('GET', '/api/admin/members/0123456789abcdef')).status).toBe(404);
    expect((await admin.request('GET', '/api/admin/members/nope')).status).toBe(400);
  });
});
