// Pull pages on both engines: posts and replies merged by change number, at most `limit` rows a
// page, and never a page that ends between two rows of one change number (a reply and its post, the
// posts of one group commit of likes), or the next page, which starts above the cursor, would skip
// the rest. And the protocol versions: a version-1 device keeps working, the next one is refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '../../../../server/db/members/accounts';
import { changeHead } from '../../../../server/db/sync/changes';
import { ERRORS } from '../../../../src/shared/errors';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type WirePost } from '../../../../src/shared/protocol';
import {
  Client,
  createOp,
  deleteReplyOp,
  editReplyOp,
  hideReplyOp,
  likeOp,
  reviewOp,
  viewOp,
  type Answer,
  signedIn,
  TEST_PASSWORD,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { allPages, type Page } from '../../support/pages';

const ids = (rows: { id: number | string }[]) => rows.map((row) => row.id).sort();
const withHeader = (version: number) => ({ [PROTOCOL_HEADER]: String(version) });

describe.each(BACKENDS)('pull pages on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let member: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    member = await signedIn(server.app, 'pager@example.com');
  });
  afterAll(() => server.close());

  async function approvedPosts(count: number): Promise<number[]> {
    const posts: number[] = [];
    for (let index = 0; index < count; index += 1) posts.push(await member.createPost(`Post ${index}`));
    await admin.push(...posts.map((postId) => reviewOp(postId)));
    return posts;
  }

  /** Likes `posts` in one group commit (one statement: each liked post a change number of its own). */
  async function likeInOneCommit(posts: number[]): Promise<void> {
    const user = (await findUser(server.db, 'pager@example.com'))!;
    const likes = posts.map((post) => ({ id: randomUUID(), user: user.id, post, count: 1, admin: false, email: user.email }));
    const rows = await server.db.query<{ code: string | null }>('SELECT code FROM ie_like_batch($1::text::jsonb)', [JSON.stringify(likes)]);
    expect(rows.map((row) => row.code)).toEqual(posts.map(() => null));
  }

  /**
   * Gives `posts` one change number together, as builds before issue 39 did for a group commit or a
   * rename (nothing writes so any more but a reply with its post): the pages must still never split it.
   */
  async function shareOneChange(posts: number[]): Promise<void> {
    const [head] = await server.db.query<{ seq: unknown }>('UPDATE change_head SET seq = seq + 1 RETURNING seq');
    await server.db.query('UPDATE posts SET likes = likes + 1, seq = $1 WHERE id = ANY($2::bigint[])', [Number(head!.seq), posts]);
  }

  it('a page and the session are kept by no cache (no-store), as every other member’s answer', async () => {
    const page = await member.pull();
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await member.request('GET', '/api/session')).headers['cache-control']).toBe('no-store');
    expect((await member.request('GET', '/api/posts/1')).headers['cache-control']).toBe('no-store');
    expect((await member.request('GET', '/api/health')).headers['cache-control']).toBe('no-store');
  });

  it('three posts liked in one group commit, limit 2: each has its number, so no page holds more than 2', async () => {
    const posts = await approvedPosts(3);
    const start = await changeHead(server.db);
    await likeInOneCommit(posts);
    expect(await changeHead(server.db)).toBe(start + 3);
    for (const protocol of [PROTOCOL_VERSION, 1]) {
      const pages = await allPages(member, start, 2, protocol);
      const seen = pages.flatMap((page) => page.posts);
      expect(ids(seen)).toEqual([...posts].sort());
      expect(seen.every((post) => post.likes === 1)).toBe(true);
      expect(pages.map((page) => page.posts.length)).toEqual([2, 1]);
    }
  });

  it('three posts sharing one change number (an older build’s), limit 2: one page holds all three', async () => {
    const posts = await approvedPosts(3);
    const start = await changeHead(server.db);
    await shareOneChange(posts);
    for (const protocol of [PROTOCOL_VERSION, 1]) {
      const pages = await allPages(member, start, 2, protocol);
      expect(ids(pages.flatMap((page) => page.posts))).toEqual([...posts].sort());
      expect(pages[0]!.posts).toHaveLength(3);
    }
  });

  it('a page that would end inside a change number ends before it, and the next page holds the whole number', async () => {
    const [single] = await approvedPosts(1);
    const grouped = await approvedPosts(3);
    const start = await changeHead(server.db);
    await member.push(likeOp(single!));
    await shareOneChange(grouped);
    const pages = await allPages(member, start, 2);
    expect(pages.map((page) => page.posts.length)).toEqual([1, 3]);
    expect(pages[0]).toMatchObject({ posts: [{ id: single }], more: true });
    expect(pages[1]!.more).toBe(false);
  });

  it('posts and replies page together by change number; every page size gives the same rows as one pull', async () => {
    const start = await changeHead(server.db);
    const posts = await approvedPosts(3);
    const other = new Client(server.app);
    await other.join('pager-other@example.com');
    const replies: string[] = [];
    for (const postId of posts) {
      replies.push((await member.reply(postId, `On ${postId}`)).id, (await other.reply(postId, `Also on ${postId}`)).id);
    }
    await member.push(editReplyOp(replies[0]!), deleteReplyOp(replies[2]!), viewOp(posts[0]!), likeOp(posts[1]!));
    await admin.push(hideReplyOp(replies[3]!));
    await likeInOneCommit(posts);
    await other.push(createOp('Not yet approved'));
    const whole = (await member.pull(start, 1000)).body as Page;
    expect(whole.more).toBe(false);
    expect(ids(whole.replies!)).toEqual([...replies].sort());
    for (const limit of [1, 2, 3, 5, 8]) {
      const pages = await allPages(member, start, limit);
      expect(ids(pages.flatMap((page) => page.posts))).toEqual(ids(whole.posts));
      expect(ids(pages.flatMap((page) => page.replies!))).toEqual(ids(whole.replies!));
      expect(pages.at(-1)!.cursor).toBe(whole.cursor);
    }
  });

  it('from the start: the sample posts with their replies, each row a change number of its own, so pages of 2 hold 2', async () => {
    const pages = await allPages(member, 0, 2);
    const first = pages[0]!;
    expect(first.posts).toHaveLength(1);
    expect(first.replies).toHaveLength(1);
    expect(first.replies![0]!.postId).toBe(first.posts[0]!.id);
    expect(first.replies![0]!.seq).toBe(first.posts[0]!.seq + 1);
    // The seed's pages (before anything the other tests wrote): never more than the limit.
    const [seed] = await server.db.query<{ end: unknown }>(
      `SELECT max(seq) AS end FROM replies WHERE author_email IN (SELECT email FROM users WHERE password_hash = '')`,
    );
    const seeded = pages.filter((page) => page.cursor <= Number(seed!.end));
    expect(seeded.length).toBeGreaterThan(1);
    for (const page of seeded) expect(page.posts.length + page.replies!.length).toBeLessThanOrEqual(2);
  });

  it('a version-1 device pushes and pulls posts and likes; its pulls carry no replies and count posts only', async () => {
    const device = new Client(server.app);
    const v1 = withHeader(1);
    expect(
      (
        await device.request(
          'POST',
          '/api/session',
          { mode: 'signup', email: 'old@example.com', password: TEST_PASSWORD, name: 'Old Device' },
          v1,
        )
      ).status,
    ).toBe(200);
    expect((await device.confirmSignUp('old@example.com'))!.status).toBe(200);
    const start = await changeHead(server.db);
    const made: Answer = await device.request('POST', '/api/ops', { ops: [createOp('From an old device')] }, v1);
    expect(made.body.results[0]).toMatchObject({ status: 'applied', post: { title: 'From an old device', status: 'pending' } });
    const postId = made.body.results[0].postId as number;
    await admin.push(reviewOp(postId));
    await member.reply(postId, 'A reply the old device never sees.');
    const liked = await device.request('POST', '/api/ops', { ops: [likeOp(postId, 2)] }, v1);
    expect(liked.body.results[0]).toMatchObject({ status: 'applied', post: { id: postId, likes: 2, comments: 1 } });
    expect(Object.keys(liked.body.results[0]).sort()).toEqual(['id', 'post', 'postId', 'seq', 'status']);
    for (const protocol of [1, null]) {
      const pulled = await device.pull(start, 1000, protocol);
      expect(Object.keys(pulled.body).sort()).toEqual(['cursor', 'more', 'posts']);
      expect(pulled.body.posts.find((post: WirePost) => post.id === postId)).toMatchObject({ likes: 2, comments: 1 });
      expect(pulled.body.cursor).toBe(await changeHead(server.db));
    }
    // Posts only are counted: one page of one post, where a version-2 device gets the reply, then the post.
    const oldPages = await allPages(device, start, 1, 1);
    expect(oldPages.map((page) => [ids(page.posts), page.replies])).toEqual([[[postId], undefined]]);
    const newPages = await allPages(device, start, 1, 2);
    expect(newPages.map((page) => [page.posts.length, page.replies!.length])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    // A version-4 device also gets its notifications: the approval on a page of its own, the reply with it;
    // a version-8 device, first, its author's following of what they wrote (a level and a read position).
    const currentPages = await allPages(device, start, 1);
    expect(
      currentPages.map((page) => [
        page.posts.length,
        page.replies!.length,
        page.notifications!.map((n) => n.kind),
        page.follows!.length + page.reads!.length,
      ]),
    ).toEqual([
      [0, 0, [], 2],
      [0, 0, ['approved'], 0],
      [0, 1, ['replied'], 0],
      [1, 0, [], 0],
    ]);
  });

  it('the next version is answered 409 protocol_mismatch; /api/health says the current one', async () => {
    const next = withHeader(PROTOCOL_VERSION + 1);
    const pulled = await member.request('GET', '/api/changes', undefined, next);
    expect(pulled).toMatchObject({
      status: 409,
      body: { error: { code: 'protocol_mismatch', message: ERRORS.protocol_mismatch.message } },
    });
    const pushed = await member.request('POST', '/api/ops', { ops: [createOp('Never')] }, next);
    expect(pushed.status).toBe(409);
    expect((await member.request('GET', '/api/health')).body).toMatchObject({ ok: true, protocol: PROTOCOL_VERSION });
    expect((await member.request('GET', '/api/changes', undefined, withHeader(0))).status).toBe(409);
  });
});
