// Push and pull through the API on both engines: server-set fields, at-most-once operations,
// concurrent likes, first review wins, visibility of pulls, paging and the cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../../src/shared/protocol';
import { Client, createOp, likeOp, memberWithSession, reviewOp, signedIn } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

describe.each(BACKENDS)('operations on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let member: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    member = await signedIn(server.app, 'member@example.com');
  });
  afterAll(() => server.close());

  it('sets author, role, likes, status and date itself: likes 999 and approved are ignored', async () => {
    const answer = await member.push(createOp('Mine', { likes: 999, status: 'approved', author: 'Someone', id: 5, authorRole: 'admin' }));
    expect(answer.status).toBe(200);
    const [result] = answer.body.results;
    expect(result.status).toBe('applied');
    expect(result.post).toMatchObject({
      title: 'Mine',
      likes: 0,
      status: 'pending',
      author: 'Member',
      authorEmail: 'member@example.com',
      authorRole: 'user',
      date: 'Just now',
    });
    expect(result.post.id).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a retried push changes nothing and answers duplicate with the same post id', async () => {
    const postId = await admin.createPost('To like');
    await admin.push(reviewOp(postId));
    const like = likeOp(postId, 3);
    const first = await member.push(like);
    const again = await member.push(like, like);
    expect(first.body.results[0]).toMatchObject({ status: 'applied', post: { likes: 3 } });
    expect(again.body.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.body.results[0]).toMatchObject({ postId, post: { likes: 3 } });
    expect(again.body.cursor).toBe(first.body.cursor);
    const create = createOp('Once');
    const made = await member.push(create);
    const remade = await member.push(create);
    expect(remade.body.results[0]).toMatchObject({ status: 'duplicate', postId: made.body.results[0].postId });
  });

  it('50 concurrent clients × 20 likes on one post count exactly 1,000', async () => {
    const postId = await admin.createPost('Popular');
    await admin.push(reviewOp(postId));
    const clients = await Promise.all(
      Array.from({ length: 50 }, (_, index) => memberWithSession(server.app, server.db, `liker${index}@example.com`)),
    );
    const answers = await Promise.all(clients.flatMap((client) => Array.from({ length: 20 }, () => client.push(likeOp(postId)))));
    expect(answers.every((answer) => answer.body.results[0].status === 'applied')).toBe(true);
    const pulled = await admin.pull();
    expect(pulled.body.posts.find((post: { id: number }) => post.id === postId).likes).toBe(1000);
  });

  it('two admins review one post at once: one wins, the other is refused', async () => {
    const second = new Client(server.app);
    await second.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const postId = await member.createPost('Review me');
    const [a, b] = await Promise.all([admin.push(reviewOp(postId, 'approve')), second.push(reviewOp(postId, 'reject'))]);
    const statuses = [a.body.results[0].status, b.body.results[0].status].sort();
    expect(statuses).toEqual(['applied', 'refused']);
    const refused = [a, b].map((answer) => answer.body.results[0]).find((result) => result.status === 'refused');
    expect(refused).toMatchObject({ code: 'already_reviewed', reason: 'This post was already reviewed' });
  });

  it('refuses with readable reasons: a bad post, a like on a pending post, an unknown post, a member review', async () => {
    const pending = await member.createPost('Pending');
    const answer = await member.push(createOp(' ', {}), likeOp(pending), likeOp(123), reviewOp(pending));
    expect(answer.body.results.map((r: { code: string }) => r.code)).toEqual(['invalid', 'not_approved', 'not_found', 'admins_only']);
    expect(answer.body.results[0].reason).toBe('Please fill in both title and content for your post.');
    const long = await member.push(createOp('x'.repeat(201)));
    expect(long.body.results[0].reason).toMatch(/Title can be at most 200 characters/);
  });

  it('one code for "admins only"; a device of protocol 1 to 3 still gets the code it knows', async () => {
    const pending = await member.createPost('Pending');
    const codes = async (protocol: number | null) =>
      (await member.pushAs(protocol, reviewOp(pending), reviewOp(pending, 'reject'))).body.results.map((r: { code: string }) => r.code);
    expect(await codes(PROTOCOL_VERSION)).toEqual(['admins_only', 'admins_only']);
    expect(await codes(4)).toEqual(['admins_only', 'admins_only']);
    expect(await codes(3)).toEqual(['forbidden', 'forbidden']);
    expect(await codes(null)).toEqual(['forbidden', 'forbidden']);
  });

  it('pulls in pages by cursor and never shows others their private posts', async () => {
    const other = new Client(server.app);
    await other.join('other@example.com');
    const hidden = await member.createPost('Hidden pending');
    const all = await other.pull(0, 1000);
    expect(all.body.posts.some((post: { id: number }) => post.id === hidden)).toBe(false);
    expect(all.body.posts.every((post: { status: string }) => post.status === 'approved')).toBe(true);
    const ownView = await member.pull(0, 1000);
    expect(ownView.body.posts.some((post: { id: number }) => post.id === hidden)).toBe(true);
    const adminView = await admin.pull(0, 1000);
    expect(adminView.body.posts.some((post: { id: number }) => post.id === hidden)).toBe(true);

    const seen: number[] = [];
    let cursor = 0;
    let pages = 0;
    for (let more = true; more; pages += 1) {
      const page = await admin.pull(cursor, 2);
      seen.push(...page.body.posts.map((post: { id: number }) => post.id));
      expect(page.body.cursor).toBeGreaterThanOrEqual(cursor);
      ({ cursor, more } = page.body);
    }
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen)).toEqual(new Set(adminView.body.posts.map((post: { id: number }) => post.id)));
    const after = await admin.pull(cursor);
    expect(after.body).toMatchObject({ posts: [], more: false, cursor });
  });

  it('checks every body and query with the shared schemas and answers readable JSON errors', async () => {
    const cases = [
      await member.request('POST', '/api/ops', { ops: [] }),
      await member.request('POST', '/api/ops', { ops: [{ id: 'not-a-uuid', type: 'like', postId: 1 }] }),
      await member.request('POST', '/api/ops', '{not json', { 'content-type': 'application/json' }),
      await member.request('GET', '/api/changes?after=-1'),
      await member.request('GET', '/api/changes?limit=5000'),
    ];
    for (const answer of cases) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/\w/);
      expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+/);
    }
    const huge = await member.request('POST', '/api/ops', { ops: [createOp('x', { content: 'y'.repeat(1_100_000) })] });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'too_large', message: 'The request is too large.' } } });
  });
});
