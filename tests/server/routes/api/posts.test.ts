// A device that holds a window of the forum (issue 44), on both engines: GET /api/posts pages
// (newest first, every reply of each post, the change head read before the rows), the part a window
// always keeps, one post by id, and the first sync's pull with `postsAfter` (a post's rows only above
// the window's head, everything else from the start), with nothing skipped while the window moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type WirePost, type WireReply } from '../../../../src/shared/protocol';
import { Client, createOp, deletePostOp, likeOp, reviewOp, saveOp, signedIn, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { DEFAULT_LIMITS } from '../../support/limits';

const headers = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };

interface PageBody {
  posts: WirePost[];
  replies: WireReply[];
  cursor: number;
  more: boolean;
}

describe.each(BACKENDS)('a window of the forum on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let writer: Client;
  let reader: Client;
  /** The approved posts, oldest first. */
  const approved: number[] = [];
  let readersOld: number;
  let writersPending: number;
  let readersPending: number;

  const get = (client: Client, path: string): Promise<Answer> => client.request('GET', path, undefined, headers);
  async function page(client: Client, path: string): Promise<PageBody> {
    const answer = await get(client, path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as PageBody;
  }
  /** Every page of `path` (a query without `before`), following `before`. */
  async function allOf(client: Client, path: string): Promise<PageBody[]> {
    const pages = [await page(client, path)];
    while (pages.at(-1)!.more) pages.push(await page(client, `${path}&before=${pages.at(-1)!.posts.at(-1)!.id}`));
    return pages;
  }

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    writer = await signedIn(server.app, 'window-writer@example.com');
    reader = await signedIn(server.app, 'window-reader@example.com');
    readersOld = await reader.createPost('The reader’s own old post', { category: 'Quantitative' });
    for (let index = 0; index < 24; index += 1)
      approved.push(await writer.createPost(`Window post ${index}`, { category: index % 2 ? 'Trends' : 'Qualitative' }));
    await admin.push(reviewOp(readersOld), ...approved.map((id) => reviewOp(id)));
    approved.unshift(readersOld);
    writersPending = await writer.createPost('The writer’s pending post');
    readersPending = await reader.createPost('The reader’s pending post');
    await writer.reply(approved[1]!, 'A reply on an old post.');
    await writer.reply(approved.at(-1)!, 'A reply on the newest post.');
    await reader.push(saveOp(approved[2]!));
  });
  afterAll(() => server.close());

  it('pages the approved posts newest first, each with every reply, without a gap or a repeat', async () => {
    const pages = await allOf(reader, '/api/posts?limit=10');
    const ids = pages.flatMap((one) => one.posts.map((post) => post.id));
    // The test server's sample posts are older than this test's.
    expect(pages.slice(0, -1).every((one) => one.posts.length === 10)).toBe(true);
    expect(ids.slice(0, approved.length)).toEqual([...approved].reverse());
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => b - a));
    expect(ids).not.toContain(writersPending);
    expect(ids).not.toContain(readersPending);
    const replies = pages.flatMap((one) => one.replies).filter((reply) => approved.includes(reply.postId));
    expect(replies.map((reply) => reply.content).sort()).toEqual(['A reply on an old post.', 'A reply on the newest post.']);
    // Each reply comes with its post's page.
    const mine = (one: PageBody) => one.replies.map((reply) => reply.postId).filter((id) => approved.includes(id));
    expect(mine(pages[0]!)).toEqual([approved.at(-1)]);
    expect(mine(pages[2]!)).toEqual([approved[1]]);
    const [head] = await server.db.query<{ seq: string }>('SELECT seq FROM change_head');
    expect(pages[0]!.cursor).toBe(Number(head!.seq));
  });

  it('pages one category only, and refuses one the forum does not have', async () => {
    const pages = await allOf(reader, '/api/posts?limit=4&category=Trends');
    const posts = pages.flatMap((one) => one.posts);
    expect(posts.length).toBe(12);
    expect(new Set(posts.map((post) => post.category))).toEqual(new Set(['Trends']));
    const refused = await get(reader, '/api/posts?category=Gossip');
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^Choose a category of the forum/);
  });

  it('keeps a member’s own posts (any status) and saved posts, and to admins every post not approved', async () => {
    const kept = (await allOf(reader, '/api/posts?part=kept&limit=500')).flatMap((one) => one.posts.map((post) => post.id));
    expect(kept.sort()).toEqual([readersOld, approved[2]!, readersPending].sort());
    const adminKept = (await allOf(admin, '/api/posts?part=kept&limit=1')).flatMap((one) => one.posts.map((post) => post.id));
    expect(adminKept).toEqual([readersPending, writersPending]);
  });

  it('answers one post with its replies, and 404 with a sentence for one the member may not see', async () => {
    const one = await page(reader, `/api/posts/${approved[1]}`);
    expect(one.posts.map((post) => post.id)).toEqual([approved[1]]);
    expect(one.replies.map((reply) => reply.content)).toEqual(['A reply on an old post.']);
    for (const id of [writersPending, 987_654_321]) {
      const missing = await get(reader, `/api/posts/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 'not_found', message: 'This post no longer exists.' });
    }
    expect((await page(writer, `/api/posts/${writersPending}`)).posts[0]!.title).toBe('The writer’s pending post');
  });

  it('refuses hostile pages with a sentence, never a stack trace', async () => {
    const paths = [
      '/api/posts?limit=0',
      '/api/posts?limit=501',
      '/api/posts?limit=ten',
      '/api/posts?before=0',
      '/api/posts?before=-4',
      '/api/posts?before=1.5',
      '/api/posts?before=9007199254740992',
      '/api/posts?part=everything',
      `/api/posts?category=${'x'.repeat(101)}`,
      '/api/posts?after=-1',
      '/api/posts/abc',
      '/api/posts/0',
      '/api/posts/-3',
      '/api/posts/9007199254740993',
      '/api/changes?postsAfter=-1',
      '/api/changes?postsAfter=soon',
      '/api/changes?postsAfter=9007199254740992',
    ];
    for (const path of paths) {
      const answer = await get(reader, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code, path).toBe('invalid');
      expect(answer.body.error.message, path).toMatch(/^Invalid \w+: \w/);
      expect(JSON.stringify(answer.body), path).not.toMatch(/ at .*\.ts|stack/);
    }
    const visitor = new Client(server.app);
    expect((await get(visitor, '/api/posts')).status).toBe(401);
    expect((await get(visitor, `/api/posts/${approved[0]}`)).status).toBe(401);
  });

  it('a first sync skips nothing while the window moves: pages, then the pull above their head', async () => {
    const device = await signedIn(server.app, 'window-device@example.com');
    // The window: the newest 10, its head read first.
    const first = await page(device, '/api/posts?limit=5');
    // Meanwhile the forum changes, inside the window and outside it.
    const fresh = await writer.createPost('A post after the window’s head');
    await admin.push(reviewOp(fresh));
    await writer.push(likeOp(approved[3]!)); // older than the window: the device does not hold it
    await writer.push(likeOp(approved.at(-7)!)); // in the window's second page, not yet read
    const lateReply = await writer.reply(approved.at(-1)!, 'A reply after the head.');
    await admin.push(deletePostOp(approved.at(-2)!));
    const second = await page(device, `/api/posts?limit=5&before=${first.posts.at(-1)!.id}`);
    const kept = await page(device, '/api/posts?part=kept&limit=500');
    await device.push(saveOp(approved[4]!));

    // The pull from the start, a post's rows only above the window's head.
    const pulled: PageBody[] = [];
    let cursor = 0;
    for (let more = true; more;) {
      const answer = await get(device, `/api/changes?after=${cursor}&limit=3&postsAfter=${first.cursor}`);
      expect(answer.status).toBe(200);
      pulled.push(answer.body as PageBody);
      cursor = answer.body.cursor as number;
      more = answer.body.more as boolean;
    }
    const pulledPosts = pulled.flatMap((one) => one.posts);
    const pulledReplies = pulled.flatMap((one) => one.replies);
    const removed = pulled.flatMap((one) => (one as unknown as { removed: { id: number; seq: number }[] }).removed);
    // Nothing at or below the head comes again but the post the device saved meanwhile (a saved
    // post comes with its save, as in any pull); everything above it does.
    expect(pulledPosts.filter((post) => post.seq <= first.cursor).map((post) => post.id)).toEqual([approved[4]]);
    expect(pulledPosts.map((post) => post.id).sort()).toEqual(
      [approved[3]!, approved[4]!, approved.at(-7)!, approved.at(-1)!, fresh].sort(),
    );
    expect(pulledReplies.map((reply) => reply.id)).toEqual([lateReply.id]);
    expect(removed.map((gone) => gone.id)).toEqual([approved.at(-2)]);
    // The device's saved post and its preferences come from the start, as in any pull.
    const saved = pulled.flatMap((one) => (one as unknown as { saved: { postId: number }[] }).saved);
    expect(saved.map((row) => row.postId)).toEqual([approved[4]]);
    expect(kept.posts).toEqual([]);

    // What the device holds, newest version of each row winning, is what the server holds now.
    const held = new Map<number, WirePost>();
    for (const post of [...first.posts, ...second.posts, ...pulledPosts])
      if ((held.get(post.id)?.seq ?? -1) < post.seq) held.set(post.id, post);
    for (const gone of removed) held.delete(gone.id);
    for (const id of [approved.at(-7)!, approved.at(-1)!, fresh]) {
      const now = (await page(device, `/api/posts/${id}`)).posts[0]!;
      expect(held.get(id), String(id)).toEqual(now);
    }
    expect(held.get(approved.at(-7)!)!.likes).toBe(1);
    expect(held.has(approved.at(-2)!)).toBe(false);
  });

  it('a pull without postsAfter (an older device, a whole forum) carries every post as before', async () => {
    const answer = await reader.pull(0, 1000);
    const ids = (answer.body.posts as WirePost[]).map((post) => post.id);
    for (const id of approved.slice(0, 5)) expect(ids).toContain(id);
    const windowed = await get(reader, '/api/changes?after=0&limit=1000&postsAfter=999999999');
    expect(windowed.body.posts).toEqual([]);
    expect(windowed.body.replies).toEqual([]);
    expect(windowed.body.saved.map((row: { postId: number }) => row.postId)).toEqual([approved[2]]);
  });

  it('creates nothing through a page: GET only', async () => {
    const answer = await reader.request('POST', '/api/posts', createOp('Through the page route'));
    expect(answer.status).toBe(404);
  });
});

describe('pages of the forum past the member limit (DEFAULT_LIMITS)', () => {
  it('answers 429 slow_down with a sentence and Retry-After once a member has read pages_per_minute pages', async () => {
    const server = await testServer('pglite', { memberLimits: DEFAULT_LIMITS });
    try {
      const reader = await signedIn(server.app, 'window-copier@example.com');
      const allowed = DEFAULT_LIMITS.pages_per_minute.firstDayCount;
      // A bucket of `allowed` that refills one a second: the refusal comes after `allowed` pages and
      // the few that refilled meanwhile (bounded: twice as many pages is more than a minute's).
      let served = 0;
      let refused: Answer | undefined;
      while (!refused && served < allowed * 2) {
        const answer = await reader.request('GET', served % 2 ? '/api/posts?limit=1' : '/api/posts/1', undefined, headers);
        if (answer.status === 429) refused = answer;
        else served += 1;
      }
      expect(served).toBeGreaterThanOrEqual(allowed);
      expect(refused?.status).toBe(429);
      if (!refused) return;
      expect(refused.body.error.code).toBe('slow_down');
      expect(refused.body.error.message).toMatch(/^[A-Z].*\./);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another member is not held back by this one.
      const other = await signedIn(server.app, 'window-other@example.com');
      expect((await other.request('GET', '/api/posts?limit=1', undefined, headers)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
