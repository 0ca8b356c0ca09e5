// The member limits (server/lib/limits.ts) with their real defaults (Discourse's): a member's first
// day, the seconds between posts, the daily caps, floods of pushes and searches answered 429 with
// Retry-After, admins exempt, the admin's changes applied (and logged), and every limit shared by
// two instances on one PostgreSQL. The clock is moved by hand (Date.now), never waited on.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/app';
import { take } from '../../../server/lib/limits';
import { openPostgres } from '../../../server/db/storage/postgres';
import { startUp } from '../../../server/db/storage/startup';
import type { Database } from '../../../server/db/storage/adapter';
import type { Op } from '../../../src/shared/protocol';
import { Client, createOp, likeOp, registerDatabase, reviewOp, signedIn, type Answer } from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS, newPostgresDatabase } from '../support/databases';
import { testServer, type TestServer } from '../support/app';
import { DEFAULT_LIMITS as DEFAULTS, RELAXED_LIMITS } from '../support/limits';

// The real defaults, but for Create Account's count per client address (3 an hour, issue 59): every
// member of these tests signs up from 127.0.0.1. routes/api/session.test.ts holds that limit.
const DEFAULT_LIMITS = { ...DEFAULTS, signups_per_hour: RELAXED_LIMITS.signups_per_hour };

const resultOf = (answer: Answer) => answer.body.results[0];

/** Stops the server's clock (Date.now), moved only by hand: no bucket refills while a test runs. */
function clock() {
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  return { advance: (ms: number) => (now += ms) };
}
afterEach(() => vi.restoreAllMocks());

describe('member limits (DEFAULT_LIMITS)', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await testServer('pglite', { memberLimits: DEFAULT_LIMITS });
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it('a member’s first day: a new post, then 120 s before the next; `failed` slow_down with when; nothing written meanwhile', async () => {
    const time = clock();
    const member = await signedIn(server.app, 'first.day@example.com');
    expect(resultOf(await member.push(createOp('First'))).status).toBe('applied');
    const slowed = resultOf(await member.push(createOp('Too soon')));
    expect(slowed).toMatchObject({ status: 'failed', code: 'slow_down', reason: 'You are doing that too often. Try again in 2 minutes.' });
    expect(slowed.retryAfter).toBeGreaterThanOrEqual(119);
    expect(slowed.retryAfter).toBeLessThanOrEqual(120);
    const [count] = await server.db.query(`SELECT count(*) AS n FROM posts WHERE title = 'Too soon'`);
    expect(Number(count!.n)).toBe(0);
    // A refusal takes nothing of the limit (its transaction gave the tokens back).
    time.advance(121_000);
    expect(resultOf(await member.push(createOp(' '))).code).toBe('invalid');
    expect(resultOf(await member.push(createOp('Second'))).status).toBe('applied');
    time.advance(121_000);
    expect(resultOf(await member.push(createOp('Third'))).status).toBe('applied');
    // Three new posts in the first day: the fourth waits hours, not minutes.
    time.advance(121_000);
    const fourth = resultOf(await member.push(createOp('Fourth')));
    expect(fourth).toMatchObject({ status: 'failed', code: 'slow_down' });
    expect(fourth.retryAfter).toBeGreaterThan(60 * 60);
    // After the first day: 15 s between posts.
    time.advance(2 * 24 * 60 * 60 * 1000);
    expect(resultOf(await member.push(createOp('A day later'))).status).toBe('applied');
    expect(resultOf(await member.push(createOp('And at once'))).retryAfter).toBe(15);
  });

  it('replies: 10 in the first day, 30 s apart; likes: 50 a day (a like of count n is n likes)', async () => {
    const time = clock();
    const member = await signedIn(server.app, 'replier.limits@example.com');
    const postId = await admin.createPost('Replied to');
    await admin.push(reviewOp(postId));
    const reply = (text: string) => ({ id: randomUUID(), type: 'reply', postId, content: text }) as Op;
    expect(resultOf(await member.push(reply('One'))).status).toBe('applied');
    expect(resultOf(await member.push(reply('Two'))).retryAfter).toBe(30);
    expect(resultOf(await member.push(likeOp(postId, 50))).status).toBe('applied');
    const over = resultOf(await member.push(likeOp(postId)));
    expect(over).toMatchObject({ status: 'failed', code: 'slow_down' });
    time.advance(24 * 60 * 60 * 1000);
    expect(resultOf(await member.push(likeOp(postId))).status).toBe('applied');
  });

  it('a bucket never refills backwards: a take whose clock reads a few ms before the last one (it waited on the row) is not refused once the admin opened the limit', async () => {
    // Sign-ups sent at once from one address share a bucket; an instance that still held the
    // default (3 an hour) made the row, then the opened limit's refill ran backwards 5 ms.
    const who = { id: 0, role: 'user' as const, key: 'address:backwards-clock' };
    const now = Date.now();
    await take(server.db, DEFAULTS, 'signups_per_hour', who, 1, now);
    await expect(take(server.db, RELAXED_LIMITS, 'signups_per_hour', who, 1, now - 5)).resolves.toBeUndefined();
  });

  it('a like of count 1,000 with 50 likes a day is refused over_limit at once, not held for 20 days; nothing is taken', async () => {
    clock();
    const member = await signedIn(server.app, 'importer.limits@example.com');
    const postId = await admin.createPost('Liked in bulk');
    await admin.push(reviewOp(postId));
    const bulk = resultOf(await member.push(likeOp(postId, 1000)));
    expect(bulk).toMatchObject({
      status: 'refused',
      code: 'over_limit',
      reason: 'This is more than the forum’s limits allow at once, so it was not done.',
    });
    expect(bulk.retryAfter).toBeUndefined();
    // The refusal took none of the day's likes: 50 still pass.
    expect(resultOf(await member.push(likeOp(postId, 50))).status).toBe('applied');
  });

  it('pulls count under pages_per_minute with the pages: 60 at once, then 429 slow_down with Retry-After, for both', async () => {
    const time = clock();
    const puller = await signedIn(server.app, 'puller.limits@example.com');
    const allowed = DEFAULT_LIMITS.pages_per_minute.firstDayCount;
    for (let index = 0; index < allowed; index += 1) expect((await puller.pull()).status).toBe(200);
    const over = await puller.pull();
    expect(over.status).toBe(429);
    expect(over.body.error).toEqual({ code: 'slow_down', message: 'You are doing that too often. Try again in 1 second.' });
    expect(over.headers['retry-after']).toBe('1');
    // The pages of the forum draw on the same limit.
    expect((await puller.request('GET', '/api/posts?limit=1')).status).toBe(429);
    time.advance(1_000);
    expect((await puller.pull()).status).toBe(200);
  });

  it('renames: 3 a day, then slow_down until the day has passed; a refused name takes nothing', async () => {
    const time = clock();
    const member = await signedIn(server.app, 'renamer.limits@example.com');
    const rename = (name: string) => ({ id: randomUUID(), type: 'rename', name }) as Op;
    expect(resultOf(await member.push(rename(' '))).code).toBe('invalid');
    for (const name of ['Renamer One', 'Renamer Two', 'Renamer Three'])
      expect(resultOf(await member.push(rename(name))).status).toBe('applied');
    const fourth = resultOf(await member.push(rename('Renamer Four')));
    expect(fourth).toMatchObject({ status: 'failed', code: 'slow_down' });
    expect(fourth.retryAfter).toBeGreaterThan(60 * 60);
    time.advance(24 * 60 * 60 * 1000);
    expect(resultOf(await member.push(rename('Renamer Four'))).status).toBe('applied');
  });

  it('admins are exempt', async () => {
    for (let index = 0; index < 5; index += 1) expect(resultOf(await admin.push(createOp(`Staff ${index}`))).status).toBe('applied');
  });

  it('a flood of pushes is answered 429 slow_down with Retry-After, before anything in it is applied', async () => {
    clock();
    const flooder = await signedIn(server.app, 'flooder@example.com');
    const postId = await admin.createPost('Viewed in a flood');
    await admin.push(reviewOp(postId));
    const view = () => ({ id: randomUUID(), type: 'view', postId }) as Op;
    // One full push of 100 operations is allowed at once; the next must wait for the bucket.
    expect((await flooder.push(...Array.from({ length: 100 }, view))).status).toBe(200);
    const flood = await flooder.push(...Array.from({ length: 100 }, view));
    expect(flood.status).toBe(429);
    expect(flood.body.error).toMatchObject({
      code: 'slow_down',
      message: expect.stringMatching(/^You are doing that too often\. Try again in \d+ seconds\.$/),
    });
    expect(Number(flood.headers['retry-after'])).toBeGreaterThan(0);
    // 20 pushes in 10 s, then 429.
    const quick = await signedIn(server.app, 'quick.pusher@example.com');
    const statuses = [];
    for (let index = 0; index < 21; index += 1) statuses.push((await quick.push(view())).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('searches: 30 a minute, then 429 with Retry-After', async () => {
    clock();
    const searcher = await signedIn(server.app, 'searcher.limits@example.com');
    for (let index = 0; index < 30; index += 1) expect((await searcher.request('GET', `/api/search?q=word${index}`)).status).toBe(200);
    const over = await searcher.request('GET', '/api/search?q=one+more');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('slow_down');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the admin changes a limit: it applies, and the staff log has it; a limit the server does not have is 400', async () => {
    const time = clock();
    const member = await signedIn(server.app, 'prolific.newcomer@example.com');
    const rule = { count: 1, seconds: 1, firstDayCount: 1, firstDaySeconds: 1 };
    const set = await admin.request('PUT', '/api/admin/limits', { name: 'seconds_between_posts', rule });
    expect(set.status).toBe(200);
    expect(set.body.limits.seconds_between_posts).toEqual(rule);
    expect(set.body.defaults.seconds_between_posts).toEqual(DEFAULT_LIMITS.seconds_between_posts);
    expect(resultOf(await member.push(createOp('One'))).status).toBe('applied');
    time.advance(1_000);
    expect(resultOf(await member.push(createOp('Two'))).status).toBe('applied');
    expect((await member.request('PUT', '/api/admin/limits', { name: 'seconds_between_posts', rule })).status).toBe(403);
    expect((await admin.request('PUT', '/api/admin/limits', { name: 'nothing_per_day', rule })).status).toBe(400);
    expect((await admin.request('PUT', '/api/admin/limits', { name: 'posts_per_day', rule: { ...rule, seconds: 0 } })).status).toBe(400);
    const log = (await admin.request('GET', '/api/admin/log')).body.entries;
    expect(log[0]).toMatchObject({ action: 'setLimit', title: 'seconds_between_posts', detail: rule });
    await admin.request('PUT', '/api/admin/limits', { name: 'seconds_between_posts', rule: DEFAULT_LIMITS.seconds_between_posts });
  });
});

describe('limits shared by two instances on one PostgreSQL', () => {
  const dbs: Database[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it('a post on one instance counts on the other; an admin’s change on one applies on the other within seconds', async () => {
    const time = clock();
    const url = await newPostgresDatabase();
    for (let index = 0; index < 2; index += 1) dbs.push(await openPostgres(url));
    await startUp(dbs[0]!, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => undefined });
    const [one, two] = await Promise.all(dbs.map((db) => buildApp({ db, adminEmail: ADMIN_EMAIL, memberLimits: DEFAULT_LIMITS })));
    registerDatabase(one!, dbs[0]!);
    try {
      const onOne = new Client(one!);
      await onOne.join('two.instances@example.com');
      const onTwo = new Client(two!);
      onTwo.cookie = onOne.cookie;
      expect(resultOf(await onOne.push(createOp('On the first'))).status).toBe('applied');
      expect(resultOf(await onTwo.push(createOp('At once on the second')))).toMatchObject({ status: 'failed', code: 'slow_down' });
      // Both instances read the settings (cached a few seconds); the admin changes one on the first.
      const admin = await signedIn(one!, ADMIN_EMAIL, ADMIN_PASSWORD);
      const rule = { count: 1, seconds: 1, firstDayCount: 1, firstDaySeconds: 1 };
      expect((await admin.request('PUT', '/api/admin/limits', { name: 'seconds_between_posts', rule })).status).toBe(200);
      time.advance(6_000);
      expect(resultOf(await onTwo.push(createOp('Six seconds later on the second'))).status).toBe('applied');
    } finally {
      await one!.close();
      await two!.close();
    }
  });
});

describe.each(BACKENDS)('the admin saves several limits in one request on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await testServer(backend, { memberLimits: DEFAULT_LIMITS });
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it('saves every rule of the list, one staff log entry each; a malformed list saves nothing; members get 403', async () => {
    const posts = { count: 7, seconds: 3600, firstDayCount: 2, firstDaySeconds: 86_400 };
    const likes = { count: 9, seconds: 60, firstDayCount: 4, firstDaySeconds: 600 };
    const set = await admin.request('PUT', '/api/admin/limits', { limits: { posts_per_day: posts, likes_per_day: likes } });
    expect(set.status).toBe(200);
    expect(set.body.limits).toMatchObject({ posts_per_day: posts, likes_per_day: likes });
    const log = (await admin.request('GET', '/api/admin/log')).body.entries.slice(0, 2);
    expect(log.map((entry: { title: string }) => entry.title).sort()).toEqual(['likes_per_day', 'posts_per_day']);

    // One good rule beside a bad one (a window of 0 seconds, or a limit the server does not have): neither is saved.
    const flags = { count: 1, seconds: 60, firstDayCount: 1, firstDaySeconds: 60 };
    const zero = await admin.request('PUT', '/api/admin/limits', {
      limits: { flags_per_day: flags, posts_per_day: { ...posts, seconds: 0 } },
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.message).toContain('limits.posts_per_day.seconds');
    const unknown = await admin.request('PUT', '/api/admin/limits', { limits: { flags_per_day: flags, nothing_per_day: flags } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^Choose one of the limits/);
    const member = await signedIn(server.app, `batch.${backend}@example.com`);
    expect((await member.request('PUT', '/api/admin/limits', { limits: { flags_per_day: flags } })).status).toBe(403);
    const now = (await admin.request('GET', '/api/admin/limits')).body.limits;
    expect(now.flags_per_day).toEqual(DEFAULT_LIMITS.flags_per_day);
    expect(now.posts_per_day).toEqual(posts);
    const [entries] = await server.db.query(`SELECT count(*) AS n FROM staff_log WHERE title = 'flags_per_day'`);
    expect(Number(entries!.n)).toBe(0);
  });
});
