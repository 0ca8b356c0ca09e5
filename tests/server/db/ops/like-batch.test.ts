// Group commit of likes (server/db/like-batch.ts): likes arriving together share one statement, yet
// each op id counts once, a refusal touches no other like, and every caller gets its own answer.
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
});
