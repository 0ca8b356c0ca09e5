// Group commit of likes (server/db/like-batch.ts): likes arriving together share one statement, yet
// each op id counts once, a refusal touches no other like, and every caller gets its own answer; on a
// post in a private category (issue 61), per liker: one outside its groups is answered not_found.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOp } from '../../../../server/db/ops/apply';
import { findUser } from '../../../../server/db/members/accounts';
import { Client, reviewOp } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

describe.each(BACKENDS)('group commit of likes on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await testServer(backend);
  });
  afterAll(() => server.close());

  it('applies 120 concurrent likes with repeats, refusals and two posts: each id counted once', async () => {
    const member = new Client(server.app);
    await member.join('batch@example.com');
    const admin = new Client(server.app);
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = await member.createPost('First');
    const second = await member.createPost('Second');
    const pending = await member.createPost('Pending');
    await admin.push(reviewOp(first), reviewOp(second));
    const user = (await findUser(server.db, 'batch@example.com'))!;
    const repeated = randomUUID();
    const likes = [
      ...Array.from({ length: 100 }, (_, index) => ({
        id: randomUUID(),
        type: 'like' as const,
        postId: index % 2 ? first : second,
        count: 2,
      })),
      ...Array.from({ length: 10 }, () => ({ id: repeated, type: 'like' as const, postId: first })),
      ...Array.from({ length: 5 }, () => ({ id: randomUUID(), type: 'like' as const, postId: pending })),
      ...Array.from({ length: 5 }, () => ({ id: randomUUID(), type: 'like' as const, postId: 999_999 })),
    ];
    const results = (await Promise.all(likes.map((op) => applyOp(server.db, user, op)))).map((applied) => applied.result);
    const statuses = (ids: number[]) =>
      results.filter((_, index) => ids.includes(index)).map((result) => (result.status === 'refused' ? result.code : result.status));
    expect(statuses(Array.from({ length: 100 }, (_, index) => index))).toEqual(Array(100).fill('applied'));
    expect(statuses(Array.from({ length: 10 }, (_, index) => 100 + index)).sort()).toEqual(['applied', ...Array(9).fill('duplicate')]);
    expect(statuses([110, 111, 112, 113, 114])).toEqual(Array(5).fill('not_approved'));
    expect(statuses([115, 116, 117, 118, 119])).toEqual(Array(5).fill('not_found'));
    const pulled = (await member.pull()).body.posts as { id: number; likes: number }[];
    expect(pulled.find((post) => post.id === first)!.likes).toBe(50 * 2 + 1);
    expect(pulled.find((post) => post.id === second)!.likes).toBe(50 * 2);
    expect(pulled.find((post) => post.id === pending)!.likes).toBe(0);
    const [recorded] = await server.db.query<{ count: unknown }>('SELECT count(*) AS count FROM ops WHERE post_id IN ($1, $2)', [
      first,
      second,
    ]);
    expect(Number(recorded!.count)).toBe(101 + 4); // 101 likes, plus the two creates and two approvals
  });

  it('answers each liker of a private category’s post on their own in one group commit: its group’s members and admins, never others', async () => {
    const writer = new Client(server.app);
    await writer.join('private-writer@example.com');
    const admin = new Client(server.app);
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const secret = await writer.createPost('In the vendor room');
    await admin.push(reviewOp(secret));
    const insider = new Client(server.app);
    await insider.join('private-insider@example.com');
    const outsider = new Client(server.app);
    await outsider.join('private-outsider@example.com');
    const leaver = new Client(server.app);
    await leaver.join('private-leaver@example.com');
    const [inside, outside, left, boss] = await Promise.all(
      ['private-insider@example.com', 'private-outsider@example.com', 'private-leaver@example.com', ADMIN_EMAIL].map(
        async (email) => (await findUser(server.db, email))!,
      ),
    );
    await server.db.query(
      `INSERT INTO groups (id, name, name_key, created_at, updated_at, seq) VALUES ('g-room', 'Room', 'room', 1, 1, 1)`,
    );
    await server.db.query(
      `INSERT INTO group_members (group_id, user_id, in_group, at, seq) VALUES ('g-room', $1, true, 1, 1), ('g-room', $2, false, 1, 1)`,
      [inside!.id, left!.id],
    );
    await server.db.query(
      `INSERT INTO categories (id, name, name_key, position, see_groups) VALUES ('room', 'Room', 'room', 9, '{g-room}')`,
    );
    await server.db.query(`UPDATE posts SET category = 'room' WHERE id = $1`, [secret]);
    const likers = [inside!, outside!, left!, boss!, inside!, outside!];
    const results = await Promise.all(likers.map((user) => applyOp(server.db, user, { id: randomUUID(), type: 'like', postId: secret })));
    expect(results.map(({ result }) => (result.status === 'refused' ? result.code : result.status))).toEqual([
      'applied',
      'not_found',
      'not_found',
      'applied',
      'applied',
      'not_found',
    ]);
    const [row] = await server.db.query<{ likes: unknown }>('SELECT likes FROM posts WHERE id = $1', [secret]);
    expect(Number(row!.likes)).toBe(3);
  });
});
