// Private categories on the server (issue 61, item 3), on PGlite and PostgreSQL: a post in a category
// seen by one group reaches that group's members and admins only. A member outside it gets none of it
// (pull, GET /api/posts pages and by id, GET /api/search, a member page, a like, a reply, a download
// of its file), as if it did not exist; added to the group, their next pull brings it with its reply.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlBlobStore } from '../../../../server/attachments/storage';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type WirePost } from '../../../../src/shared/protocol';
import { Client, likeOp, replyOp, reviewOp, signedIn, TEST_PASSWORD, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const headers = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
const TITLE = 'Client pricing for the vendor panel';
const FILE = 'ab'.repeat(32);

describe.each(BACKENDS)('a private category on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let writer: Client;
  let insider: Client;
  let stranger: Client;
  const group = randomUUID();
  const room = randomUUID();
  let secret: number;
  let open: number;
  let writerId: string;

  const get = (client: Client, path: string): Promise<Answer> => client.request('GET', path, undefined, headers);
  const memberId = async (email: string) =>
    String((await server.db.query<{ member_id: string }>('SELECT member_id FROM users WHERE email = $1', [email]))[0]!.member_id);
  const applied = (answer: Answer) => expect(answer.body?.results?.[0], JSON.stringify(answer.body)).toMatchObject({ status: 'applied' });
  const postIds = (answer: Answer) => ((answer.body?.posts ?? []) as WirePost[]).map((post) => post.id);

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    writer = await signedIn(server.app, 'room-writer@example.com');
    insider = await signedIn(server.app, 'room-insider@example.com');
    stranger = await signedIn(server.app, 'room-stranger@example.com');
    writerId = await memberId('room-writer@example.com');
    applied(await admin.push({ id: randomUUID(), type: 'createGroup', groupId: group, name: 'Vendor team' } as never));
    for (const email of ['room-writer@example.com', 'room-insider@example.com']) {
      applied(await admin.push({ id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: await memberId(email) } as never));
    }
    applied(
      await admin.push({
        id: randomUUID(),
        type: 'createCategory',
        categoryId: room,
        name: 'Vendor room',
        position: 6,
        see: [group],
        post: null,
      } as never),
    );
    secret = await writer.createPost(TITLE, { category: room });
    open = await writer.createPost('An open post about panels', { category: 'Trends' });
    applied(await admin.push(reviewOp(secret), reviewOp(open)));
    await writer.reply(secret, 'A reply inside the vendor room.');
    // A file carried by the private post (its bytes stored as an upload's are).
    await server.db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'png', 'image/png', 4, 1)`, [FILE]);
    await sqlBlobStore.put(server.db, FILE, new Uint8Array([1, 2, 3, 4]));
    await server.db.query(`UPDATE posts SET attachments = $2::text::jsonb WHERE id = $1`, [
      secret,
      JSON.stringify([{ sha256: FILE, name: 'prices.png', mime: 'image/png', size: 4 }]),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reaches a member of the group: pull, pages, the post, search, a like and its file', async () => {
    const pulled = await insider.pull();
    expect(pulled.status).toBe(200);
    expect(postIds(pulled)).toContain(secret);
    expect(JSON.stringify(pulled.body)).toContain('A reply inside the vendor room.');
    expect(postIds(await get(insider, '/api/posts?limit=50'))).toContain(secret);
    expect(postIds(await get(insider, `/api/posts?limit=50&category=${room}`))).toEqual([secret]);
    expect((await get(insider, `/api/posts/${secret}`)).status).toBe(200);
    expect(postIds(await get(insider, `/api/search?q=${encodeURIComponent('vendor pricing')}&category=All`))).toContain(secret);
    // category: looks for the name members see (the category is kept by an id nobody reads).
    expect(postIds(await get(insider, `/api/search?q=${encodeURIComponent('category:"vendor room"')}&category=All`))).toEqual([secret]);
    expect(postIds(await get(insider, `/api/search?q=${encodeURIComponent(`category:${room.slice(0, 8)}`)}&category=All`))).toEqual([]);
    expect((await get(insider, `/api/attachments/${FILE}`)).status).toBe(200);
    applied(await insider.push(likeOp(secret)));
  });

  it('reaches a member outside the group in none of its ways', async () => {
    const pulled = await stranger.pull();
    expect(pulled.status).toBe(200);
    expect(postIds(pulled)).toContain(open);
    expect(postIds(pulled)).not.toContain(secret);
    expect(JSON.stringify(pulled.body)).not.toContain(TITLE);
    expect(JSON.stringify(pulled.body)).not.toContain('vendor room.');
    const page = await get(stranger, '/api/posts?limit=50');
    expect(postIds(page)).toContain(open);
    expect(postIds(page)).not.toContain(secret);
    expect((await get(stranger, `/api/posts?limit=50&category=${room}`)).status).toBe(400);
    expect((await get(stranger, `/api/posts/${secret}`)).status).toBe(404);
    expect(postIds(await get(stranger, `/api/search?q=${encodeURIComponent('category:"vendor room"')}&category=All`))).toEqual([]);
    const found = await get(stranger, `/api/search?q=${encodeURIComponent('vendor pricing')}&category=All`);
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).not.toContain(TITLE);
    const profile = await get(stranger, `/api/members/${writerId}`);
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).not.toContain(TITLE);
    expect(profile.body.approvedPosts).toBe(1);
    expect((await stranger.push(likeOp(secret))).body.results[0]).toMatchObject({ status: 'refused', code: 'not_found' });
    expect((await stranger.push(replyOp(secret, 'Let me in.'))).body.results[0]).toMatchObject({ status: 'refused', code: 'not_found' });
    expect((await get(stranger, `/api/attachments/${FILE}`)).status).toBe(404);
  });

  it('comes in Sign In’s first page to a member of the group only, by the pull’s rule (issue 64, item 5)', async () => {
    // What a device that has never pulled asks for with its password: the window's first page.
    const signIn = (email: string, firstPage?: number) =>
      new Client(server.app).request(
        'POST',
        '/api/session',
        { mode: 'signin', email, password: TEST_PASSWORD, ...(firstPage ? { firstPage } : {}) },
        headers,
      );
    const inside = await signIn('room-insider@example.com', 20);
    expect(inside.status).toBe(200);
    expect(inside.body?.user).toMatchObject({ email: 'room-insider@example.com' });
    expect(postIds({ ...inside, body: inside.body?.firstPage })).toEqual(expect.arrayContaining([secret, open]));
    expect(JSON.stringify(inside.body?.firstPage)).toContain('A reply inside the vendor room.');
    // The same page as GET /api/posts answers that member.
    const page = await get(insider, '/api/posts?limit=20');
    expect(postIds({ ...inside, body: inside.body?.firstPage })).toEqual(postIds(page));
    const outside = await signIn('room-stranger@example.com', 20);
    expect(outside.status).toBe(200);
    const strangers = postIds({ ...outside, body: outside.body?.firstPage });
    expect(strangers).toContain(open);
    expect(strangers).not.toContain(secret);
    expect(JSON.stringify(outside.body)).not.toContain(TITLE);
    expect(JSON.stringify(outside.body)).not.toContain('A reply inside the vendor room.');
    // Not asked for, not carried; and at most what was asked for.
    expect((await signIn('room-insider@example.com')).body).not.toHaveProperty('firstPage');
    expect(((await signIn('room-insider@example.com', 1)).body?.firstPage as { posts: WirePost[] }).posts).toHaveLength(1);
  });

  it('reaches the member in their next pull once they are added to the group', async () => {
    const before = await stranger.pull();
    const cursor = before.body.cursor as number;
    applied(
      await admin.push({
        id: randomUUID(),
        type: 'addGroupMember',
        groupId: group,
        memberId: await memberId('room-stranger@example.com'),
      } as never),
    );
    const next = await stranger.pull(cursor);
    expect(postIds(next)).toContain(secret);
    expect(JSON.stringify(next.body)).toContain('A reply inside the vendor room.');
    expect((await get(stranger, `/api/attachments/${FILE}`)).status).toBe(200);
  });

  it('tells its author of a reply only while they may see it: taken out of the group, no new notification and no old one in a pull', async () => {
    const notified = async () =>
      ((await writer.pull()).body.notifications as { postId: number; kind: string }[]).filter(
        (note) => note.postId === secret && note.kind === 'replied',
      ).length;
    await insider.reply(secret, 'A first answer.');
    const whileIn = await notified();
    expect(whileIn).toBeGreaterThan(0);
    applied(
      await admin.push({
        id: randomUUID(),
        type: 'removeGroupMember',
        groupId: group,
        memberId: writerId,
      } as never),
    );
    await insider.reply(secret, 'A second answer.');
    // None made for the second answer, and the pull no longer carries the first one's either.
    expect(await notified()).toBe(0);
    expect(
      await server.db.query(
        `SELECT 1 FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = 'room-writer@example.com' AND n.post_id = $1 AND n.kind = 'replied'`,
        [secret],
      ),
    ).toHaveLength(whileIn);
    expect(JSON.stringify((await writer.pull()).body)).not.toContain('A second answer.');
  });
});
