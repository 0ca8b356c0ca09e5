// The topology of docs/scaling.md, run here (issue 43, items 1 and 3): HAProxy → three server
// instances → PgBouncer in transaction mode → the PostgreSQL primary, each instance's LISTEN on the
// primary directly, and a streaming replica made with pg_basebackup (scripts/cluster.mjs, the same
// code as `npm run cluster`). Loopback only; bounded in count and time; everything stops at the end.
// The faults kill parts and never start them by hand: the cluster's supervisor does (issue 64).
// CLUSTER_PORT_BASE gives the cluster consecutive ports from it (else free ports the system picks).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/cluster.mjs';
import { createOp, likeOp, reviewOp, TEST_PASSWORD } from './support/client';
import { ADMIN_EMAIL } from './support/databases';
import { HttpClient } from './support/http';
import { relaxServerLimits } from './support/limits';
import { noPushes, pushUntilAnswered } from './support/outbox';
import { processTestFiles } from './support/process';
import { openEventStream } from './support/sse';
import { startSmtp, until, type TestSmtp } from './support/smtp';

const { distDir } = processTestFiles();
let cluster: Cluster;
let smtp: TestSmtp;
/** How long an instance's claim on an email holds: a message claimed by a killed instance goes after it. */
const MAIL_LEASE_MS = 10_000;

beforeAll(async () => {
  smtp = await startSmtp();
  cluster = await startCluster({
    serverScript: join(process.cwd(), 'dist-server-test', 'server.js'),
    distDir: distDir(),
    adminPassword: 'admin-pw',
    env: { SMTP_URL: smtp.url, MAIL_LEASE_MS: String(MAIL_LEASE_MS) },
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await smtp?.close();
}, 180_000);

/** The emails still waiting in the queue (not accepted by the SMTP server, or not recorded so). */
async function mailWaiting(): Promise<number> {
  const primary = postgres(cluster.primary.url, { max: 1 });
  try {
    return Number((await primary`SELECT count(*)::int AS n FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL`)[0]!.n);
  } finally {
    await primary.end();
  }
}

/**
 * Every email of the run so far arrived once: no queued message (its Message-ID names its queue row,
 * server/mail/transport.ts) was sent twice.
 */
function expectEachEmailOnce(): void {
  const sent = smtp.received.map((mail) => `${mail.to}: ${mail.subject} ${mail.messageId ?? 'with no Message-ID'}`);
  expect(sent.filter((key, index) => sent.indexOf(key) !== index)).toEqual([]);
  expect(smtp.received.every((mail) => mail.messageId)).toBe(true);
}

/** The sign-up emails queued for `email`: one per Create Account that reached the database (a try again after a 503 may make two). */
async function signUpsQueued(email: string): Promise<number> {
  const primary = postgres(cluster.primary.url, { max: 1 });
  try {
    return Number((await primary`SELECT count(*)::int AS n FROM mail_outbox WHERE to_email = ${email} AND kind = 'signup'`)[0]!.n);
  } finally {
    await primary.end();
  }
}

/**
 * `send`, again while the answer is 503: after the primary restarts, a pooled connection it left
 * behind fails the one request that meets it (503, "try again in a moment"), and the app's device
 * tries again. Bounded.
 */
async function patiently(client: HttpClient, method: string, path: string, payload?: unknown) {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await client.send(method, path, payload);
    if (answer.status !== 503 || attempt === 20) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The token of the newest sign-up link queued for `email`, read from the queue on the primary (sent or held). */
async function signUpLink(email: string): Promise<string | undefined> {
  const primary = postgres(cluster.primary.url, { max: 1 });
  try {
    const [row] = await primary`SELECT text_body FROM mail_outbox WHERE to_email = ${email} AND kind = 'signup' ORDER BY id DESC LIMIT 1`;
    return (row?.text_body as string | undefined)?.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
  } finally {
    await primary.end();
  }
}

/** Create Account, then its emailed link (issue 59: the link makes the account and signs in). */
async function signedUp(url: string, email: string): Promise<HttpClient> {
  const member = new HttpClient(url);
  const answer = await patiently(member, 'POST', '/api/session', {
    mode: 'signup',
    email,
    password: TEST_PASSWORD,
    name: email.split('@')[0],
  });
  if (answer.status !== 200) throw new Error(`sign-up of ${email}: ${answer.status} ${JSON.stringify(answer.body)}`);
  const token = await signUpLink(email);
  const confirmed = token ? await patiently(member, 'POST', '/api/email/confirm', { token, password: TEST_PASSWORD }) : undefined;
  // A sign-up tried again after a 503 (the database restarted by the test before) may find the
  // account its first try made, or its link used: the member signs in then.
  if (confirmed?.status !== 200) {
    const signedIn = await patiently(member, 'POST', '/api/session', { mode: 'signin', email, password: TEST_PASSWORD });
    if (signedIn.status !== 200) throw new Error(`sign-in of ${email}: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  }
  return member;
}

/** Polls `read` (a query on a database) until it gives `wanted` (an error: not yet); bounded by the test's timeout. */
async function eventually<T>(read: () => Promise<T>, wanted: T): Promise<void> {
  for (;;) {
    if ((await read().catch(() => undefined)) === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The likes of post `postId` as `instance` reads them (a pull from the start: from the replica once it has replayed). */
async function likesOn(instance: { url: string }, cookie: string | undefined, postId: number): Promise<number | undefined> {
  const reader = new HttpClient(instance.url);
  reader.cookie = cookie;
  const posts = (await reader.send('GET', '/api/changes?after=0')).body.posts as { id: number; likes: number }[] | undefined;
  return posts?.find((post) => post.id === postId)?.likes;
}

/**
 * Every acknowledged like counted once: `expected` on the primary at once, and on the replica and
 * through every instance once the replica has replayed (a pull from the start reads the replica,
 * which may be a moment behind: reading it once, at once, was this suite's flake in CI).
 */
async function expectCounted(postId: number, expected: number, cookie: string | undefined): Promise<void> {
  const primary = postgres(cluster.primary.url, { max: 1 });
  const replica = postgres(cluster.replica.url, { max: 1 });
  try {
    expect(Number((await primary`SELECT likes FROM posts WHERE id = ${postId}`)[0]!.likes), 'the primary').toBe(expected);
    await eventually(async () => Number((await replica`SELECT likes FROM posts WHERE id = ${postId}`)[0]?.likes ?? -1), expected);
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
  for (const instance of cluster.instances) expect(await likesOn(instance, cookie, postId), instance.name).toBe(expected);
}

describe('the cluster: HAProxy, three instances, PgBouncer (transaction mode), a primary and a streaming replica', () => {
  let admin: HttpClient;
  let postId: number;

  it('comes up: every part answers, writes go through the pooler, live streams hear other instances, the replica follows', async () => {
    const health = await fetch(`${cluster.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, database: 'postgres' });
    for (const instance of cluster.instances) {
      expect((await fetch(`${instance.url}/api/health`)).status, instance.name).toBe(200);
      expect(await (await fetch(`${instance.url}/api/ready`)).json(), instance.name).toEqual({ ok: true, database: 'postgres' });
    }

    admin = new HttpClient(cluster.url);
    expect((await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'admin-pw' })).status).toBe(200);
    await relaxServerLimits(admin);
    postId = (await admin.send('POST', '/api/ops', { ops: [createOp('Through the load balancer')] })).body.results[0].postId as number;
    expect((await admin.send('POST', '/api/ops', { ops: [reviewOp(postId)] })).body.results[0].status).toBe('applied');

    // A member's live stream on instance 1 hears a like written through instance 2 (its NOTIFY
    // reaches instance 1's LISTEN on the primary, while the write went through PgBouncer).
    const member = await signedUp(cluster.url, 'cluster-reader@example.com');
    const stream = await openEventStream(cluster.instances[0]!.url, member.cookie!);
    try {
      const before = (await member.send('GET', '/api/changes?after=0')).body.cursor as number;
      const onSecond = new HttpClient(cluster.instances[1]!.url);
      onSecond.cookie = admin.cookie;
      const heard = stream.nextCursor((cursor) => cursor > before);
      expect((await onSecond.send('POST', '/api/ops', { ops: [likeOp(postId)] })).body.results[0].status).toBe('applied');
      expect(await heard).toBeGreaterThan(before);
    } finally {
      stream.close();
    }

    // The instances' queries went through PgBouncer, in transaction mode: its console's pools.
    const pools = execFileSync(
      'psql',
      ['--csv', '-h', '127.0.0.1', '-p', String(cluster.bouncer.port), '-U', 'postgres', '-c', 'SHOW POOLS', 'pgbouncer'],
      {
        encoding: 'utf8',
      },
    );
    const [header, ...rows] = pools
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const pool = rows
      .map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]])))
      .find((row) => row.database === 'postgres');
    expect(pool?.pool_mode).toBe('transaction');
    expect(Number(pool?.cl_active) + Number(pool?.cl_idle ?? 0) + Number(pool?.cl_waiting)).toBeGreaterThanOrEqual(3);
    const primary = postgres(cluster.primary.url, { max: 1 });
    const replica = postgres(cluster.replica.url, { max: 1 });
    try {
      // The replica is a hot standby that has replayed the post and its like.
      expect((await replica`SELECT pg_is_in_recovery() AS standby`)[0]!.standby).toBe(true);
      await eventually(async () => Number((await replica`SELECT likes FROM posts WHERE id = ${postId}`)[0]?.likes ?? -1), 1);
      expect((await primary`SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'`)[0]!.n).toBe(1);
    } finally {
      await Promise.all([primary.end(), replica.end()]);
    }
  }, 120_000);

  it('one instance SIGKILLed under load and started again by the supervisor: every like is applied exactly once, and every instance reads the same count', async () => {
    const CLIENTS = 6;
    const LIKES_EACH = 20;
    const KILL_AFTER = 30;
    // The members' confirmation emails are held in the SMTP server's DATA, one on each instance,
    // while an instance is killed: its message is not accepted, and another instance sends it once
    // the claim runs out.
    let releaseMail!: () => void;
    smtp.hold = new Promise<void>((resolve) => (releaseMail = resolve));
    const members = await Promise.all(Array.from({ length: CLIENTS }, (_, index) => signedUp(cluster.url, `cluster${index}@example.com`)));
    const victim = cluster.instances[1]!;
    let acknowledged = 0;
    let killTime!: () => void;
    const killNow = new Promise<void>((resolve) => (killTime = resolve));
    let markBack!: () => void;
    const back = new Promise<void>((resolve) => (markBack = resolve));
    const outcome = noPushes();

    const push = async (member: HttpClient) => {
      await pushUntilAnswered(member, likeOp(postId), outcome, () => back);
      acknowledged += 1;
      if (acknowledged === KILL_AFTER) killTime();
    };
    const clients = members.map(async (member) => {
      for (let like = 0; like < LIKES_EACH; like += 1) await push(member);
    });

    await killNow;
    const atKill = acknowledged;
    const restarts = victim.restarts;
    await victim.kill('SIGKILL');
    // No hand restart: the supervisor starts it again.
    await victim.up();
    expect(victim.restarts).toBe(restarts + 1);
    markBack();
    releaseMail();
    await Promise.all(clients);

    expect(atKill).toBeLessThan(CLIENTS * LIKES_EACH); // the kill came while likes were being sent
    expect(outcome.applied + outcome.duplicate).toBe(CLIENTS * LIKES_EACH);
    // A push cut by the kill is sent to another instance by the balancer (a push is safe to send twice).
    expect(outcome.serverErrors).toBe(0);
    // One like from the first case, then every like of this one, once.
    await expectCounted(postId, 1 + CLIENTS * LIKES_EACH, admin.cookie);
    // Each member's sign-up link arrived once (the killed instance's after its claim ran out): as many
    // emails as sign-ups queued (a Create Account tried again after a 503 under load queues two).
    await eventually(mailWaiting, 0);
    smtp.hold = undefined;
    for (let index = 0; index < CLIENTS; index += 1) {
      const address = `cluster${index}@example.com`;
      const queued = await signUpsQueued(address);
      expect(queued, address).toBeGreaterThanOrEqual(1);
      expect(smtp.to(address), address).toHaveLength(queued);
    }
    expectEachEmailOnce();
  }, 180_000);

  it('sign-in attempts are limited across instances: wrong passwords sent to each instance in turn meet one limit', async () => {
    await signedUp(cluster.url, 'cluster-guessed@example.com');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const instance = cluster.instances[attempt % cluster.instances.length]!;
      const guesser = new HttpClient(instance.url);
      const answer = await guesser.send('POST', '/api/session', {
        mode: 'signin',
        email: 'cluster-guessed@example.com',
        password: `wrong-${attempt}-guess`,
      });
      statuses.push(answer.status);
    }
    // Ten wrong passwords per email and address in 15 minutes, wherever they land (four per instance
    // here: a limit kept in each instance's memory would never have been passed).
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  }, 180_000);

  it('PgBouncer stopped, then the primary stopped, then the replica stopped, each started again by the supervisor, while members like and emails go: each like and each email once, no 5xx, live streams hear changes after each, the replica catches up', async () => {
    const CLIENTS = 4;
    const member = await signedUp(cluster.url, 'cluster-listener@example.com');
    const members = await Promise.all(Array.from({ length: CLIENTS }, (_, index) => signedUp(cluster.url, `faults${index}@example.com`)));
    const likesBefore = (await admin.send('GET', '/api/changes?after=0')).body.posts.find((post: { id: number }) => post.id === postId)
      .likes as number;
    // Opened on instance 1 before every fault, kept through them: its LISTEN must come back by itself.
    const stream = await openEventStream(cluster.instances[0]!.url, member.cookie!);
    const outcome = noPushes();
    /** A like pushed until answered, with the same op id every time (the app's outbox; its back-off shortened). */
    const like = (client: HttpClient) =>
      pushUntilAnswered(client, likeOp(postId), outcome, () => new Promise((resolve) => setTimeout(resolve, 50)), 200);
    /**
     * A reset email held in the SMTP server's DATA while `down` takes the database away, and
     * accepted while it is away: recorded as sent once `up` brings it back, never sent again.
     */
    const mailThroughOutage = async (address: string, down: () => Promise<void> | void, up: () => Promise<void> | void) => {
      await eventually(mailWaiting, 0);
      let release!: () => void;
      smtp.hold = new Promise<void>((resolve) => (release = resolve));
      const arriving = smtp.dataStarted();
      expect((await new HttpClient(cluster.url).send('POST', '/api/password/forgot', { email: address })).status).toBe(202);
      await arriving;
      await down();
      release();
      await until(() => smtp.to(address).length === 2, 20_000, `the reset email to ${address}, accepted while the database was away`);
      smtp.hold = undefined;
      await up();
    };
    /** `work`, or a failure that names `step` when it has not ended within `ms` (the case's own timeout names nothing). */
    const within = <T>(step: string, ms: number, work: Promise<T>): Promise<T> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${step}: not done within ${ms / 1000} s`)), ms);
      });
      return Promise.race([work, late]).finally(() => clearTimeout(timer));
    };
    /** Likes from every member while `fault` runs, then one more heard live on instance 1. */
    // Set once the case ends, however it ends: no member goes on liking into the next case (a failed
    // step once left four of them liking, and the next case counted their likes).
    let over = false;
    const during = async (name: string, fault: () => Promise<void> | void) => {
      let running = true;
      const load = members.map(async (client) => {
        let made = 0;
        while (!over && (running || made < 3)) {
          await like(client);
          made += 1;
        }
        return made;
      });
      try {
        await within(`${name}: the fault and the part back`, 90_000, Promise.resolve(fault()));
      } finally {
        running = false;
      }
      const made = (await within(`${name}: the members' likes answered`, 60_000, Promise.all(load))).reduce((sum, count) => sum + count, 0);
      const cursor = (await member.send('GET', '/api/changes?after=0')).body.cursor as number;
      const heard = stream.nextCursor((next) => next > cursor);
      await within(`${name}: one more like answered`, 30_000, like(members[0]!));
      await within(`${name}: that like heard on instance 1's live stream`, 30_000, heard);
      return made + 1;
    };
    try {
      let made = 0;
      // Each part stopped from outside (SIGINT: PgBouncer's safe shutdown, PostgreSQL's fast one)
      // and never started by hand: the supervisor starts it again.
      const restarts = [cluster.bouncer, cluster.primary, cluster.replica].map((part) => part.restarts);
      made += await during('PgBouncer stopped', () =>
        mailThroughOutage(
          'faults0@example.com',
          () => cluster.bouncer.kill('SIGINT'),
          () => cluster.bouncer.up(),
        ),
      );
      made += await during('the primary stopped', () =>
        mailThroughOutage(
          'faults1@example.com',
          () => cluster.primary.kill('SIGINT'),
          () => cluster.primary.up(),
        ),
      );
      made += await during('the replica stopped', async () => {
        await cluster.replica.kill('SIGINT');
        await cluster.replica.up();
      });
      expect([cluster.bouncer, cluster.primary, cluster.replica].map((part) => part.restarts)).toEqual(restarts.map((n) => n + 1));
      expect(outcome.applied + outcome.duplicate).toBe(made);
      // The pushes waited inside the instances while the pooler or the primary was away.
      expect(outcome.serverErrors).toBe(0);
      await expectCounted(postId, likesBefore + made, admin.cookie);
      // Each email accepted while the database was away was recorded once it came back: sent once.
      await eventually(mailWaiting, 0);
      for (const address of ['faults0@example.com', 'faults1@example.com']) expect(smtp.to(address), address).toHaveLength(2);
      expectEachEmailOnce();
    } finally {
      over = true;
      stream.close();
    }
  }, 180_000);

  it('pulls and searches read from the replica when it has replayed to the cursor, else from the primary: replay paused and resumed, the replica stopped, while devices sync', async () => {
    const reader = await signedUp(cluster.url, 'cluster-puller@example.com');
    const replica = postgres(cluster.replica.url, { max: 1 });
    const head = async (sql: postgres.Sql) => Number((await sql`SELECT seq FROM change_head`)[0]!.seq);
    const primary = postgres(cluster.primary.url, { max: 1 });
    const pull = async (after: number) => {
      const answer = await patiently(reader, 'GET', `/api/changes?after=${after}&limit=1000`);
      expect(answer.status).toBe(200);
      return {
        from: answer.headers['x-insight-read-from'],
        cursor: answer.body.cursor as number,
        posts: answer.body.posts as { id: number; likes: number }[],
      };
    };
    /** The server's search for the post, from a device at cursor `after` (undefined: an older device sends none). */
    const search = async (after?: number) => {
      const answer = await patiently(reader, 'GET', `/api/search?q=balancer${after === undefined ? '' : `&after=${after}`}`);
      expect(answer.status).toBe(200);
      const found = (answer.body.posts as { id: number; likes: number }[]).find((post) => post.id === postId);
      return { from: answer.headers['x-insight-read-from'], likes: found?.likes };
    };
    /** A device syncing all along: pulls from its cursor until told to stop; its cursor must never go back. */
    let syncing = true;
    const cursors: number[] = [];
    const device = (async () => {
      let cursor = 0;
      while (syncing) {
        const page = await pull(cursor);
        expect(page.cursor).toBeGreaterThanOrEqual(cursor);
        cursor = page.cursor;
        cursors.push(cursor);
      }
      return cursor;
    })();
    let liked = Number.POSITIVE_INFINITY;
    try {
      // Caught up: the replica answers.
      await eventually(async () => (await head(replica)) >= (await head(primary)), true);
      expect((await pull(await head(primary))).from).toBe('replica');

      // Replay paused: a like on the primary; a device asking from before it is answered by the
      // replica (its head, without the like: nothing skipped, the cursor not past it); a device
      // asking from after it is answered by the primary.
      await replica`SELECT pg_wal_replay_pause()`;
      const frozen = await head(replica);
      expect((await patiently(admin, 'POST', '/api/ops', { ops: [likeOp(postId)] })).body.results[0].status).toBe('applied');
      liked = await head(primary);
      expect(liked).toBeGreaterThan(frozen);
      const behind = await pull(frozen);
      expect(behind).toMatchObject({ from: 'replica', cursor: frozen });
      const ahead = await pull(liked);
      expect(ahead.from).toBe('primary');
      expect(ahead.cursor).toBeGreaterThanOrEqual(liked);
      // A search likewise: from before the like, the replica (the likes it has replayed); from
      // after it, or with no cursor, the primary (the like counted).
      const likesNow = Number((await primary`SELECT likes FROM posts WHERE id = ${postId}`)[0]!.likes);
      expect(await search(frozen)).toEqual({ from: 'replica', likes: likesNow - 1 });
      expect(await search(liked)).toEqual({ from: 'primary', likes: likesNow });
      expect(await search()).toEqual({ from: 'primary', likes: likesNow });

      // Resumed: the replica replays the like, and a pull from before it brings it, from the replica.
      await replica`SELECT pg_wal_replay_resume()`;
      await eventually(async () => (await head(replica)) >= liked, true);
      const caught = await pull(frozen);
      expect(caught.from).toBe('replica');
      expect(caught.cursor).toBeGreaterThanOrEqual(liked);
      expect(caught.posts.find((post) => post.id === postId)?.likes).toBe(likesNow);
      expect(await search(liked)).toEqual({ from: 'replica', likes: likesNow });

      // The replica stopped: the primary answers; started again, the replica does.
      // Stopped and held stopped (as `systemctl stop` does; a replica that died would be back at once).
      await cluster.replica.stop('SIGINT');
      expect((await pull(frozen)).from).toBe('primary');
      expect(await search(frozen)).toEqual({ from: 'primary', likes: likesNow });
      await cluster.replica.start();
      await eventually(async () => (await head(replica)) >= liked, true);
      expect((await pull(liked)).from).toBe('replica');
    } finally {
      syncing = false;
      await Promise.all([replica.end(), primary.end()]);
    }
    // The device that synced all along reached past the like, its cursor never going back.
    expect(await device).toBeGreaterThanOrEqual(liked);
    expect(cursors.length).toBeGreaterThan(3);
  }, 120_000);

  it('stops whole: every process ends and its folder goes', async () => {
    const { dir } = cluster;
    await cluster.stop();
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(`${cluster.url}/api/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    for (const instance of cluster.instances) expect(instance.child?.exitCode ?? instance.child?.signalCode, instance.name).not.toBeNull();
  }, 180_000);
});
