// Replies on both engines: replies set by the server (author, clock, trimmed text, quotes),
// at most once per op id, a post's comments always its number of visible replies, one view per
// member per post, and an op that changes nothing takes no change number.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '../../../../server/db/members/accounts';
import { changeHead } from '../../../../server/db/sync/changes';
import { CHANGES_CHANNEL } from '../../../../server/db/ops/answers';
import { applyOp } from '../../../../server/db/ops/apply';
import { LIMITS } from '../../../../src/shared/post-rules';
import type { WirePost, WireReply } from '../../../../src/shared/protocol';
import { validateReply } from '../../../../src/shared/validation';
import {
  Client,
  deleteReplyOp,
  editReplyOp,
  hideReplyOp,
  memberWithSession,
  replyOp,
  restoreReplyOp,
  reviewOp,
  viewOp,
  type Answer,
  signedIn,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const resultOf = (answer: Answer) => answer.body.results[0];

describe.each(BACKENDS)('replies on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let member: Client;
  let other: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    member = await signedIn(server.app, 'member@example.com');
    other = await signedIn(server.app, 'other@example.com');
  });
  afterAll(() => server.close());

  async function approvedPost(title = 'A conversation'): Promise<number> {
    const postId = await member.createPost(title);
    await admin.push(reviewOp(postId));
    return postId;
  }

  async function postAsPulled(client: Client, postId: number): Promise<WirePost> {
    return (await client.pull()).body.posts.find((post: WirePost) => post.id === postId);
  }

  async function repliesAsPulled(client: Client, postId: number): Promise<WireReply[]> {
    return (await client.pull()).body.replies.filter((reply: WireReply) => reply.postId === postId);
  }

  it('a reply takes its id from the op, its author from the session, its time from the server, its text trimmed', async () => {
    const postId = await approvedPost();
    const op = replyOp(postId, '  Good point.  ');
    const before = Date.now();
    const answer = await other.push(op);
    const after = Date.now();
    const result = resultOf(answer);
    expect(result).toMatchObject({ status: 'applied', postId, post: { id: postId, comments: 1 } });
    expect(result.reply).toMatchObject({
      id: op.id,
      postId,
      author: 'Other',
      authorEmail: 'other@example.com',
      authorRole: 'user',
      content: 'Good point.',
      quoteId: null,
      editedAt: null,
      state: 'visible',
    });
    expect(result.reply.createdAt).toBeGreaterThanOrEqual(before);
    expect(result.reply.createdAt).toBeLessThanOrEqual(after);
    // The reply and its post's new count share one change number; the push's cursor covers it.
    expect(result.reply.seq).toBe(result.post.seq);
    expect(answer.body.cursor).toBeGreaterThanOrEqual(result.reply.seq);
    // Another member's device gets it without the replier's email (their id names them).
    expect(await repliesAsPulled(member, postId)).toEqual([{ ...result.reply, authorEmail: '' }]);
    expect(result.reply.authorId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('an edit sets the text and editedAt, and the push cursor covers the reply (its post keeps its number)', async () => {
    const postId = await approvedPost();
    const reply = await member.reply(postId, 'First words.');
    const answer = await member.push(editReplyOp(reply.id, ' Better words. '));
    const result = resultOf(answer);
    expect(result.reply).toMatchObject({ id: reply.id, content: 'Better words.', createdAt: reply.createdAt, state: 'visible' });
    expect(result.reply.editedAt).toBeGreaterThanOrEqual(reply.createdAt);
    expect(result.reply.seq).toBeGreaterThan(result.post.seq);
    expect(answer.body.cursor).toBeGreaterThanOrEqual(result.reply.seq);
  });

  it('refuses an empty or too long text with the rule’s sentence, and writes nothing', async () => {
    const postId = await approvedPost();
    const reply = await member.reply(postId);
    const answer = await member.push(
      replyOp(postId, '   '),
      replyOp(postId, 'x'.repeat(LIMITS.reply + 1)),
      replyOp(postId, 42),
      editReplyOp(reply.id, ''),
    );
    expect(answer.body.results.map((result: { code: string }) => result.code)).toEqual(['invalid', 'invalid', 'invalid', 'invalid']);
    expect(answer.body.results[0].reason).toBe(validateReply('')!.message);
    expect(answer.body.results[1].reason).toBe(validateReply('x'.repeat(LIMITS.reply + 1))!.message);
    expect((await postAsPulled(member, postId)).comments).toBe(1);
    expect((await repliesAsPulled(member, postId)).map((r) => r.content)).toEqual(['A reply.']);
  });

  it('keeps a quote of a reply of the same post; drops one of another post, a deleted or an unknown reply', async () => {
    const postId = await approvedPost();
    const elsewhere = await member.reply(await approvedPost('Elsewhere'));
    const quoted = await member.reply(postId, 'Quote me.');
    const gone = await member.reply(postId, 'Soon deleted.');
    await member.push(deleteReplyOp(gone.id));
    const quotes = await Promise.all(
      [quoted.id, elsewhere.id, gone.id, randomUUID()].map(async (quoteId) => (await other.reply(postId, 'Quoting.', quoteId)).quoteId),
    );
    expect(quotes).toEqual([quoted.id, null, null, null]);
  });

  it('a retried reply changes nothing: one reply, comments unchanged, each retry answers duplicate with the same reply', async () => {
    const postId = await approvedPost();
    const op = replyOp(postId, 'Only once.');
    const first = await member.push(op, op);
    expect(first.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'duplicate']);
    const applied = first.body.results[0];
    expect(first.body.results[1]).toMatchObject({ postId, reply: applied.reply, post: { comments: 1 } });
    const later = await member.push(op);
    expect(resultOf(later)).toEqual({
      id: op.id,
      status: 'duplicate',
      seq: applied.reply.seq,
      postId,
      post: applied.post,
      reply: applied.reply,
    });
    expect(later.body.cursor).toBeGreaterThanOrEqual(applied.reply.seq);
    // A new reply applied twice at once (both pass the check outside the lock; the op id recorded in
    // the transaction is the guarantee): one reply.
    const racing = replyOp(postId, 'Sent twice at once.');
    const user = (await findUser(server.db, 'member@example.com'))!;
    const results = (await Promise.all([applyOp(server.db, user, racing), applyOp(server.db, user, racing)])).map(
      (applied) => applied.result,
    );
    expect(results.map((result) => result.status).sort()).toEqual(['applied', 'duplicate']);
    expect('reply' in results[0]! && results[0].reply).toEqual('reply' in results[1]! && results[1].reply);
    expect(await repliesAsPulled(admin, postId)).toHaveLength(2);
    expect((await postAsPulled(admin, postId)).comments).toBe(2);
    // The same op id from another account is a conflict, not a second reply.
    expect(resultOf(await other.push(op))).toMatchObject({ status: 'refused', code: 'conflict' });
  });

  it('a retried edit or delete answers duplicate with the reply as it is now', async () => {
    const postId = await approvedPost();
    const reply = await member.reply(postId, 'Before.');
    const edit = editReplyOp(reply.id, 'After.');
    await member.push(edit);
    const remove = deleteReplyOp(reply.id);
    await member.push(remove);
    const again = await member.push(edit, remove);
    expect(again.body.results.map((result: { status: string }) => result.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.body.results[0].reply).toMatchObject({ id: reply.id, state: 'deleted', content: '' });
    expect((await postAsPulled(member, postId)).comments).toBe(0);
  });

  it('comments is the number of visible replies after reply, hide, restore and delete', async () => {
    const postId = await approvedPost();
    const comments = async () => (await postAsPulled(other, postId)).comments;
    const [a, b, c] = [await member.reply(postId, 'a'), await other.reply(postId, 'b'), await admin.reply(postId, 'c')];
    expect(await comments()).toBe(3);
    await admin.push(hideReplyOp(a.id));
    expect(await comments()).toBe(2);
    await admin.push(restoreReplyOp(a.id));
    expect(await comments()).toBe(3);
    await other.push(deleteReplyOp(b.id));
    expect(await comments()).toBe(2);
    // Deleting a hidden reply leaves the count (and the post's change number) as they were.
    await admin.push(hideReplyOp(c.id));
    const hidden = await postAsPulled(other, postId);
    expect(hidden.comments).toBe(1);
    const deleted = resultOf(await admin.push(deleteReplyOp(c.id)));
    expect(deleted.reply).toMatchObject({ state: 'deleted', content: '' });
    expect(deleted.post).toMatchObject({ comments: 1, seq: hidden.seq });
    const states = (await repliesAsPulled(admin, postId)).map((reply) => [reply.content, reply.state]);
    expect(states).toEqual([
      ['a', 'visible'],
      ['', 'deleted'],
      ['', 'deleted'],
    ]);
  });

  it('a deleted reply’s text is erased; a hidden one’s is kept for admins and never sent to a member', async () => {
    const postId = await approvedPost();
    const secret = `Hidden words ${randomUUID()}`;
    const write = replyOp(postId, secret);
    const reply = resultOf(await member.push(write)).reply as WireReply;
    const hidden = resultOf(await admin.push(hideReplyOp(reply.id)));
    expect(hidden.reply).toMatchObject({ state: 'hidden', content: secret });
    for (const client of [member, other]) {
      const pulled = await client.pull();
      expect(JSON.stringify(pulled.body)).not.toContain(secret);
      expect(pulled.body.replies.find((r: WireReply) => r.id === reply.id)).toMatchObject({ state: 'hidden', content: '' });
    }
    // The author's retried op answers without the text too, and the text can no longer be edited.
    expect(resultOf(await member.push(write))).toMatchObject({ status: 'duplicate', reply: { state: 'hidden', content: '' } });
    expect(resultOf(await member.push(editReplyOp(reply.id, 'Too late.')))).toMatchObject({ status: 'refused', code: 'reply_hidden' });
    const restored = resultOf(await admin.push(restoreReplyOp(reply.id)));
    expect(restored.reply).toMatchObject({ state: 'visible', content: secret });
    const [row] = await server.db.query<{ content: string }>('SELECT content FROM replies WHERE id = $1', [reply.id]);
    expect(row!.content).toBe(secret);
    await member.push(deleteReplyOp(reply.id));
    const [erased] = await server.db.query<{ content: string }>('SELECT content FROM replies WHERE id = $1', [reply.id]);
    expect(erased!.content).toBe('');
  });

  it('hiding a hidden reply, restoring a visible one and a second view are applied but take no change number', async () => {
    const postId = await approvedPost();
    const reply = await member.reply(postId);
    await member.push(viewOp(postId));
    await admin.push(hideReplyOp(reply.id));
    const head = await changeHead(server.db);
    const answer = await admin.push(hideReplyOp(reply.id), restoreReplyOp(reply.id), restoreReplyOp(reply.id));
    expect(answer.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'applied', 'applied']);
    expect(answer.body.results[0].reply.state).toBe('hidden');
    expect(answer.body.results[2].reply.state).toBe('visible');
    expect(await changeHead(server.db)).toBe(head + 1); // the restore only
    const again = await member.push(viewOp(postId));
    expect(resultOf(again)).toMatchObject({ status: 'applied', post: { views: 1 } });
    expect(await changeHead(server.db)).toBe(head + 1);
  });

  it('announces a change on ie_changes only when it takes a change number (never a refusal or an op that changes nothing)', async () => {
    const postId = await approvedPost();
    const reply = await member.reply(postId);
    await member.push(viewOp(postId));
    const heard: string[] = [];
    const stop = await server.db.listen(CHANGES_CHANNEL, (payload) => heard.push(payload));
    try {
      const head = await changeHead(server.db);
      const nothing = await member.push(viewOp(postId), editReplyOp(reply.id, ''), hideReplyOp(reply.id), replyOp(999_999_999));
      expect(nothing.body.results.map((result: { status: string; code?: string }) => result.code ?? result.status)).toEqual([
        'applied',
        'invalid',
        'admins_only',
        'not_found',
      ]);
      await admin.push(restoreReplyOp(reply.id));
      expect(await changeHead(server.db)).toBe(head);
      // The next change is the first one heard, with the very next number.
      const answer = await other.push(replyOp(postId));
      expect(resultOf(answer).reply.seq).toBe(head + 1);
      await expect.poll(() => heard.includes(String(head + 1)), { timeout: 5000 }).toBe(true);
      expect(heard.filter((payload) => Number(payload) > head)).toEqual([String(head + 1)]);
    } finally {
      await stop();
    }
  });

  it('views count once per member per post: two members +2, one member twice or on two devices +1', async () => {
    const postId = await approvedPost();
    const views = async () => (await postAsPulled(admin, postId)).views;
    const secondDevice = new Client(server.app);
    await secondDevice.join('other@example.com');
    const view = viewOp(postId);
    const answers = await Promise.all([other.push(view, viewOp(postId)), secondDevice.push(viewOp(postId)), member.push(viewOp(postId))]);
    expect(answers.every((answer) => answer.body.results.every((result: { status: string }) => result.status === 'applied'))).toBe(true);
    expect(await views()).toBe(2);
    expect(resultOf(await other.push(view))).toMatchObject({ status: 'duplicate', post: { views: 2 } });
    expect(await views()).toBe(2);
    const [counted] = await server.db.query<{ n: unknown }>('SELECT count(*) AS n FROM post_views WHERE post_id = $1', [postId]);
    expect(Number(counted!.n)).toBe(2);
  });

  it('many members reply to one post at once: every reply counted', async () => {
    const postId = await approvedPost();
    const clients = await Promise.all(
      Array.from({ length: 20 }, (_, index) => memberWithSession(server.app, server.db, `replier${index}@example.com`)),
    );
    const answers = await Promise.all(clients.flatMap((client) => [client.push(replyOp(postId)), client.push(viewOp(postId))]));
    expect(answers.every((answer) => resultOf(answer).status === 'applied')).toBe(true);
    const post = await postAsPulled(admin, postId);
    expect(post).toMatchObject({ comments: 20, views: 20 });
    expect(await repliesAsPulled(admin, postId)).toHaveLength(20);
  });
});
