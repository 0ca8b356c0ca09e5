// Group commit of likes (server/db/like-batch.ts): likes arriving together share one statement, yet
// each op id counts once, a refusal touches no other like, and every caller gets its own answer; on a
// post in a private category (issue 61), per liker: one outside its groups is answered not_found.
// Each like's limits are taken in that statement (issue 64): over a member's limit a like is answered
// slow_down while the others of its batch apply, and two instances on one PostgreSQL share one limit.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOp } from '../../../../server/db/ops/apply';
import { findUser, type UserRow } from '../../../../server/db/members/accounts';
import { openPostgres } from '../../../../server/db/storage/postgres';
import { HttpError } from '../../../../server/lib/http-error';
import { requestTakes, type Limits } from '../../../../server/lib/limits';
import type { Op } from '../../../../src/shared/protocol';
import { Client, reviewOp } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS, newPostgresDatabase } from '../../support/databases';
import { TEMPLATE_DATABASE } from '../../support/database-names';
import { testServer, type TestServer } from '../../support/app';
import { RELAXED_LIMITS } from '../../support/limits';

const DAY = 24 * 60 * 60;
/** The limits open, but for `count` likes a day (a member's first day too) and `pushes` pushes. */
const tight = (count: number, pushes = 1_000_000): Limits => ({
  ...RELAXED_LIMITS,
  likes_per_day: { count, seconds: DAY, firstDayCount: count, firstDaySeconds: DAY },
  pushes_per_10_seconds: { count: pushes, seconds: 10, firstDayCount: pushes, firstDaySeconds: 10 },
});
const likeOf = (postId: number): Op => ({ id: randomUUID(), type: 'like', postId });
const outcome = ({ result }: { result: { status: string; code?: string } }) =>
  result.status === 'failed' || result.status === 'refused' ? result.code : result.status;

/** A member who joined through `app`, and an approved post of theirs. */
async function likerAndPost(server: TestServer, email: string): Promise<{ user: UserRow; postId: number }> {
  const member = new Client(server.app);
  await member.join(email);
  const admin = new Client(server.app);
  await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  const postId = await member.createPost(`Liked by ${email}`);
  await admin.push(reviewOp(postId));
  return { user: (await findUser(server.db, email))!, postId };
}

const likesOf = async (server: { db: TestServer['db'] }, postId: number) =>
  Number((await server.db.query<{ likes: unknown }>('SELECT likes FROM posts WHERE id = $1', [postId]))[0]!.likes);

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
  it('takes each like’s limit in the batch: over a member’s limit a like is slow_down while the rest of its batch applies', async () => {
    const { user: greedy, postId } = await likerAndPost(server, `greedy.${backend}@example.com`);
    const { user: modest } = await likerAndPost(server, `modest.${backend}@example.com`);
    const boss = (await findUser(server.db, ADMIN_EMAIL))!;
    const limits = tight(3);
    // The admin's like (no limits) starts a batch of its own; the seven after it, sent meanwhile, form the next.
    const [, ...answers] = await Promise.all([
      applyOp(server.db, boss, likeOf(postId), undefined, limits),
      ...Array.from({ length: 5 }, () => applyOp(server.db, greedy, likeOf(postId), undefined, limits)),
      ...Array.from({ length: 2 }, () => applyOp(server.db, modest, likeOf(postId), undefined, limits)),
    ]);
    expect(answers.map(outcome)).toEqual(['applied', 'applied', 'applied', 'slow_down', 'slow_down', 'applied', 'applied']);
    expect(answers[3]!.result).toMatchObject({ status: 'failed', code: 'slow_down' });
    // Three likes a day: the next is about eight hours away.
    expect((answers[3]!.result as { retryAfter: number }).retryAfter).toBeGreaterThan(7 * 60 * 60);
    // A like already applied takes none of the day's likes: with none left, its retry answers duplicate, not slow_down.
    expect(outcome(await applyOp(server.db, modest, likeOf(postId), undefined, limits))).toBe('applied');
    expect(outcome(await applyOp(server.db, modest, likeOf(postId), undefined, limits))).toBe('slow_down');
    const again = { id: answers[5]!.result.id, type: 'like', postId } as Op;
    expect(outcome(await applyOp(server.db, modest, again, undefined, limits))).toBe('duplicate');
    expect(await likesOf(server, postId)).toBe(1 + 3 + 2 + 1);
  });

  it('takes a one-like push’s own limits with it: over them the push is answered 429 and nothing is taken or applied', async () => {
    const { user, postId } = await likerAndPost(server, `pusher.${backend}@example.com`);
    const limits = tight(50, 1);
    const push = async () =>
      applyOp(
        server.db,
        user,
        likeOf(postId),
        undefined,
        limits,
        undefined,
        await requestTakes(server.db, limits, user, [['pushes_per_10_seconds', 1]]),
      );
    expect(outcome(await push())).toBe('applied');
    const flood = await push().catch((error: unknown) => error);
    expect(flood).toBeInstanceOf(HttpError);
    expect(flood).toMatchObject({ statusCode: 429, code: 'slow_down' });
    expect(await likesOf(server, postId)).toBe(1);
    const [bucket] = await server.db.query<{ tokens: unknown }>(
      `SELECT tokens FROM rate_buckets WHERE key = $1 AND name = 'likes_per_day'`,
      [`member:${user.id}`],
    );
    expect(Number(bucket!.tokens)).toBeCloseTo(49, 3);
  });
});

describe('one like limit on two instances of one PostgreSQL', () => {
  it('counts exactly: likes through both, at once, pass up to the limit and not one more', async () => {
    const url = await newPostgresDatabase(TEMPLATE_DATABASE);
    const server = await testServer('postgres', {}, await openPostgres(url));
    const other = await openPostgres(url);
    try {
      const { user, postId } = await likerAndPost(server, 'two.instances.likes@example.com');
      // Each database handle has its own group commit, as each instance has.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) => applyOp(index % 2 ? other : server.db, user, likeOf(postId), undefined, tight(5))),
      );
      expect(answers.filter((answer) => outcome(answer) === 'applied')).toHaveLength(5);
      expect(answers.filter((answer) => outcome(answer) === 'slow_down')).toHaveLength(7);
      expect(await likesOf(server, postId)).toBe(5);
    } finally {
      await other.close();
      await server.close();
    }
  });
});
