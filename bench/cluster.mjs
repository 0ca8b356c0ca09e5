#!/usr/bin/env node
// `npm run bench:cluster` (after `npm run build`): issue 43's scale rows on the topology of
// `npm run cluster` (scripts/cluster.mjs: HAProxy, three instances, PgBouncer in transaction mode, a
// PostgreSQL primary with fsync on and a streaming replica), 127.0.0.1 only, bounded:
// 1. Likes through HAProxy and the three instances, per second (200 members × 50 likes on one post),
//    beside the physical anchor measured on the same primary in the same run: the same number of
//    single-row autocommit UPDATEs from 30 connections (the instances' pools through PgBouncer hold
//    as many), each commit flushed to the WAL.
// 2. 10,000 live listeners on one instance (ten streams per member session, the server's cap): a
//    like pushed through HAProxy, until every stream has announced it; p50 / p95 of 20 rounds, and
//    the instance's resident memory per stream.
// 3. A first pull of 100,000 posts (seeded into the primary with one INSERT … SELECT), from the
//    replica once it has replayed them: pages of 1,000 through HAProxy.
// 4. The cluster heals itself (issue 64): six members like through HAProxy for 60 s, resending an
//    unanswered push with the same op id (the app's outbox), while an instance is SIGKILLed, PgBouncer
//    stopped, the primary stopped and the replica stopped, each 15 s apart, none started by hand (the
//    cluster's supervisor does). Every acknowledged like must be counted once on the primary, the
//    replica and through every instance; the answers of 5xx the members saw and the seconds each
//    fault took to recover are reported.
// The measures 1-3 are bench/server/measures.mjs's, as `npm run bench:server` runs them on one
// instance. BENCH_ONLY=likes,announce,pull,faults runs some of them.
// CLUSTER_PORT_BASE=4750 puts the cluster's ports from 4750 on (scripts/cluster.mjs).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import postgres from 'postgres';
import { startCluster } from '../scripts/cluster.mjs';
import { BENCH_PASSWORD, noteSignUpLinks, openLimits, Session } from './server/harness.mjs';
import { announce, approvedPost, firstPull, likeStorm, rawAutocommit, seedPosts } from './server/measures.mjs';
import { writeSection } from './sections.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LIKES_EACH = 50;
const RAW_CONNECTIONS = 30;
const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 10_000);
const ROUNDS = 20;
const PULL_POSTS = Number(process.env.BENCH_PULL_POSTS ?? 100_000);
const chosen = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const want = (measure) => !chosen || chosen.includes(measure);
const log = (line) => console.log(`[bench:cluster ${new Date().toISOString().slice(11, 19)}] ${line}`);
const loadNow = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const FAULT_CLIENTS = 6;
const FAULT_SECONDS = Number(process.env.BENCH_FAULT_SECONDS ?? 60);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * A member signed in through the balancer: Create Account, then the link it queued (read from the
 * primary's mail queue: any instance may send it).
 */
async function member(cluster, email) {
  const session = new Session(cluster.url);
  await session.send('POST', '/api/session', { mode: 'signup', email, password: BENCH_PASSWORD, name: email.split('@')[0] });
  const token = await signUpToken(cluster, email);
  await session.send('POST', '/api/email/confirm', { token, password: BENCH_PASSWORD });
  return session;
}

/** The token of the newest sign-up link queued for `email`, from the primary's mail queue. */
async function signUpToken(cluster, email) {
  const primary = postgres(cluster.primary.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await primary`SELECT text_body FROM mail_outbox WHERE to_email = ${email} AND kind = 'signup' ORDER BY id DESC LIMIT 1`;
    const token = row?.text_body.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no sign-up link queued for ${email}`);
    return token;
  } finally {
    await primary.end();
  }
}

/** One push of `op`: the HTTP status (0: no answer, the connection failed) and the op's status. */
async function pushOnce(session, op) {
  try {
    const answer = await session.push(op);
    return { status: 200, op: answer.results[0].status };
  } catch (error) {
    return { status: Number(/: (\d{3})( |$)/.exec(error.message)?.[1] ?? 0) };
  }
}

/** The like count of `postId` on each database, and as each instance's pull from the start reads it. */
async function counted(cluster, admin, postId) {
  const read = async (url) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      return Number((await sql`SELECT likes FROM posts WHERE id = ${postId}`)[0].likes);
    } finally {
      await sql.end();
    }
  };
  const counts = { primary: await read(cluster.primary.url), replica: await read(cluster.replica.url) };
  for (const instance of cluster.instances) {
    const reader = new Session(instance.url);
    reader.cookie = admin.cookie;
    counts[instance.name] = (await reader.send('GET', '/api/changes?after=0&limit=1000')).posts.find((post) => post.id === postId)?.likes;
  }
  return counts;
}

/** Issue 64's fault sequence under six members' likes, no part started by hand; see the header. */
async function faultRun(cluster) {
  const { admin, postId } = await approvedPost(cluster.url);
  // Probes (the admin's likes on a post of their own) say when writes go through again.
  const probePost = (await approvedPost(cluster.url)).postId;
  const sessions = await Promise.all(Array.from({ length: FAULT_CLIENTS }, (_, index) => member(cluster, `healing${index}@bench.example`)));
  const tally = { acked: 0, applied: 0, duplicate: 0, resent: 0, refused: 0 };
  /** When (ms since the start) each 5xx and each failed connection was seen, and each push's wait. */
  const serverErrors = [];
  const noAnswers = [];
  const waits = [];
  const started = performance.now();
  const since = () => performance.now() - started;
  let running = true;
  const client = async (session) => {
    while (running) {
      const op = { id: randomUUID(), type: 'like', postId };
      const sent = since();
      for (;;) {
        const answer = await pushOnce(session, op);
        if (answer.op === 'applied' || answer.op === 'duplicate') {
          tally.acked += 1;
          tally[answer.op] += 1;
          break;
        }
        if (answer.status === 200) {
          // Refused or failed (never expected here): not acknowledged, not resent.
          tally.refused += 1;
          break;
        }
        (answer.status >= 500 ? serverErrors : noAnswers).push(since());
        tally.resent += 1;
        await sleep(250);
      }
      waits.push({ at: sent, ms: since() - sent });
    }
  };
  const load = sessions.map(client);
  /** Time from the fault until `ready` says the service is whole again, in ms. */
  const faults = [
    { name: 'instance-2 SIGKILLed', part: cluster.instances[1], signal: 'SIGKILL' },
    { name: 'PgBouncer stopped (SIGINT)', part: cluster.bouncer, signal: 'SIGINT' },
    { name: 'the primary stopped (SIGINT: fast shutdown)', part: cluster.primary, signal: 'SIGINT' },
    { name: 'the replica stopped (SIGINT)', part: cluster.replica, signal: 'SIGINT' },
  ];
  const spacing = (FAULT_SECONDS * 1000) / (faults.length + 0.5);
  const primarySql = postgres(cluster.primary.url, { max: 1, onnotice: () => {} });
  const replicaSql = postgres(cluster.replica.url, { max: 1, onnotice: () => {} });
  const head = async (sql) => Number((await sql`SELECT seq FROM change_head`)[0].seq);
  try {
    for (const [index, fault] of faults.entries()) {
      await sleep(Math.max(0, spacing * (index + 0.5) - since()));
      fault.at = since();
      const restarts = fault.part.restarts;
      log(`  ${(fault.at / 1000).toFixed(1)} s: ${fault.name}`);
      await fault.part.kill(fault.signal);
      await fault.part.up(60_000);
      fault.partBackMs = since() - fault.at;
      fault.restarted = fault.part.restarts - restarts;
      // Whole again: a probe like goes through the balancer, and (the replica) it has caught up.
      for (;;) {
        const probe = await pushOnce(admin, { id: randomUUID(), type: 'like', postId: probePost });
        if (probe.op === 'applied') break;
        await sleep(50);
      }
      if (fault.part === cluster.replica) {
        const target = await head(primarySql);
        while ((await head(replicaSql).catch(() => -1)) < target) await sleep(50);
      }
      if (fault.part === cluster.instances[1])
        while (
          !(await fetch(`${fault.part.url}/api/ready`)
            .then((answer) => answer.ok)
            .catch(() => false))
        )
          await sleep(50);
      fault.wholeMs = since() - fault.at;
      log(
        `    ${fault.part.name} back after ${(fault.partBackMs / 1000).toFixed(2)} s, whole after ${(fault.wholeMs / 1000).toFixed(2)} s`,
      );
    }
    await sleep(Math.max(0, FAULT_SECONDS * 1000 - since()));
    running = false;
    await Promise.all(load);
    // The replica replays the last likes; then every count is read.
    const target = await head(primarySql);
    while ((await head(replicaSql)) < target) await sleep(50);
  } finally {
    running = false;
    await Promise.all([primarySql.end(), replicaSql.end()]);
  }
  const counts = await counted(cluster, admin, postId);
  // Each fault's window runs until the next fault (the last: to the end).
  for (const [index, fault] of faults.entries()) {
    const end = faults[index + 1]?.at ?? Number.POSITIVE_INFINITY;
    const inWindow = (at) => at >= fault.at && at < end;
    fault.serverErrors = serverErrors.filter(inWindow).length;
    fault.noAnswers = noAnswers.filter(inWindow).length;
    fault.longestWaitMs = Math.max(0, ...waits.filter((wait) => inWindow(wait.at)).map((wait) => wait.ms));
  }
  return {
    seconds: since() / 1000,
    tally,
    counts,
    serverErrors: serverErrors.length,
    noAnswers: noAnswers.length,
    faults: faults.map(({ part: _part, ...fault }) => fault),
  };
}

const results = { load: loadNow() };
log('starting the cluster…');
// Its thousands of clients all come from 127.0.0.1 through HAProxy: the per-address cap is lifted.
const cluster = await startCluster({ adminPassword: 'bench-admin', log, env: { MAX_CONNECTIONS_PER_ADDRESS: '1000000' } });
const deadline = setTimeout(() => {
  console.error('bench:cluster: over 25 minutes, stopping');
  void cluster.stop().then(() => process.exit(1));
}, 25 * 60_000);
try {
  // The balancer's members are made by the links their instances queued (any instance may send them).
  noteSignUpLinks(cluster.url, (email) => signUpToken(cluster, email));
  await openLimits(cluster.url);
  if (want('likes')) {
    log(`likes: ${CLIENTS} members × ${LIKES_EACH} through HAProxy…`);
    results.likes = await likeStorm([cluster.url], CLIENTS, LIKES_EACH, 'liker');
    log(
      `  ${results.likes.opsPerSecond.toFixed(0)} likes/s (p50 ${results.likes.p50.toFixed(0)} ms, p99 ${results.likes.p99.toFixed(0)} ms)`,
    );
    const admin = new Session(cluster.url);
    await admin.signIn('admin@insightexchange.app', 'bench-admin');
    const created = await admin.push({ id: randomUUID(), type: 'create', post: { title: 'Anchor', content: 'Raw', category: 'Trends' } });
    const postId = created.results[0].postId;
    log(`raw autocommit: ${CLIENTS * LIKES_EACH} UPDATEs from ${RAW_CONNECTIONS} connections to the primary…`);
    results.raw = await rawAutocommit(cluster.primary.url, postId, RAW_CONNECTIONS, { count: CLIENTS * LIKES_EACH });
    log(`  ${results.raw.opsPerSecond.toFixed(0)} UPDATEs/s (p50 ${results.raw.p50.toFixed(1)} ms, p99 ${results.raw.p99.toFixed(1)} ms)`);
  }
  if (want('announce')) {
    const instance = cluster.instances[0];
    log(`live streams: ${LISTENERS.toLocaleString('en-US')} on ${instance.name}…`);
    results.announce = await announce({ url: instance.url, pid: instance.child.pid }, cluster.url, LISTENERS, ROUNDS);
    log(
      `  p50 ${results.announce.p50.toFixed(0)} ms, p95 ${results.announce.p95.toFixed(0)} ms; RSS ${results.announce.rssBefore.toFixed(0)} → ${results.announce.rssAfter.toFixed(0)} MB`,
    );
  }
  if (want('faults')) {
    log(`the cluster heals itself: ${FAULT_CLIENTS} members like for ${FAULT_SECONDS} s through four faults, none started by hand…`);
    results.faults = await faultRun(cluster);
    const { tally, counts } = results.faults;
    log(`  ${tally.acked} acknowledged; counted ${JSON.stringify(counts)}; ${results.faults.serverErrors} answers of 5xx`);
  }
  if (want('pull')) {
    log(`first pull: seeding ${PULL_POSTS.toLocaleString('en-US')} posts into the primary…`);
    const primary = postgres(cluster.primary.url, { max: 1, onnotice: () => {} });
    const replica = postgres(cluster.replica.url, { max: 1, onnotice: () => {} });
    try {
      await seedPosts(async (text, params) => primary.unsafe(text, params), PULL_POSTS);
      const [{ seq }] = await primary`SELECT seq FROM change_head`;
      const replayStarted = performance.now();
      while (Number((await replica`SELECT seq FROM change_head`)[0].seq) < Number(seq)) await new Promise((done) => setTimeout(done, 50));
      results.replayMs = performance.now() - replayStarted;
      const probe = new Session(cluster.url);
      await probe.signIn('admin@insightexchange.app', 'bench-admin');
      const answer = await fetch(`${cluster.url}/api/changes?after=0&limit=1`, { headers: { cookie: probe.cookie } });
      results.pullFrom = answer.headers.get('x-insight-read-from');
      log(
        `  the replica replayed them ${results.replayMs.toFixed(0)} ms after the seed committed; a pull is read from the ${results.pullFrom}`,
      );
      const instance = cluster.instances[0];
      results.pull = await firstPull({ url: cluster.url, pid: instance.child.pid }, PULL_POSTS);
      log(`  ${(results.pull.ms / 1000).toFixed(1)} s, ${results.pull.pages} pages`);
    } finally {
      await Promise.all([primary.end(), replica.end()]);
    }
  }
} catch (error) {
  // What the instances logged, to find why (their last lines).
  for (const instance of cluster.instances) log(`${instance.name}'s log:\n${instance.output.slice(-3000)}`);
  throw error;
} finally {
  clearTimeout(deadline);
  await cluster.stop();
}

results.loadAfter = loadNow();
const rows = ['| measure | figure | goal |', '|---|---|---|'];
if (results.likes)
  rows.push(
    `| likes through HAProxy and three instances (${CLIENTS} members × ${LIKES_EACH}, one post), per second | **${results.likes.opsPerSecond.toFixed(0)}/s** (p50 ${results.likes.p50.toFixed(0)} ms, p99 ${results.likes.p99.toFixed(0)} ms) | at or above the anchor |`,
    `| the anchor: single-row autocommit UPDATEs on the same primary, ${RAW_CONNECTIONS} connections, same run | ${results.raw.opsPerSecond.toFixed(0)}/s (p50 ${results.raw.p50.toFixed(1)} ms, p99 ${results.raw.p99.toFixed(1)} ms) | — |`,
  );
if (results.announce)
  rows.push(
    `| ${LISTENERS.toLocaleString('en-US')} live streams on one instance told of a like (push through HAProxy → every stream announced), p50 / p95 of ${ROUNDS} | ${results.announce.p50.toFixed(0)} / **${results.announce.p95.toFixed(0)} ms** | p95 ≤ 1 s |`,
    `| the instance's resident memory with them open (before → after), per stream | ${results.announce.rssBefore.toFixed(0)} → ${results.announce.rssAfter.toFixed(0)} MB, ${(((results.announce.rssAfter - results.announce.rssBefore) * 1024) / LISTENERS).toFixed(1)} KB | — |`,
  );
if (results.pull)
  rows.push(
    `| a first pull of ${PULL_POSTS.toLocaleString('en-US')} posts from the replica (pages of 1,000 through HAProxy; read from: ${results.pullFrom}) | **${(results.pull.ms / 1000).toFixed(1)} s**, ${results.pull.pages} pages | — |`,
    `| the replica's replay of the seed (from its commit on the primary to the replica's head) | ${results.replayMs.toFixed(0)} ms | — |`,
  );
const dated = `Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${os.cpus().length} cores · Node ${process.version} · \`npm run bench:cluster\` · load average ${results.load} → ${results.loadAfter}`;
if (rows.length > 2) {
  const body = [dated, '', ...rows].join('\n');
  await writeSection('bench/results.md', 'The cluster: three instances, PgBouncer, a replica (issue 43)', body);
  log(`\n${body}`);
}
if (results.faults) {
  const { tally, counts, faults } = results.faults;
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const everywhere = Object.entries(counts)
    .map(([where, count]) => `${where} ${count}`)
    .join(', ');
  const exact = Object.values(counts).every((count) => count === tally.acked);
  const healing = [
    "| measure | before (2026-12-01, by hand) | after (this run) | the issue's measure |",
    '|---|---|---|---|',
    `| likes acknowledged (${FAULT_CLIENTS} members, ${FAULT_SECONDS} s, an unanswered push resent with its op id) | 1,183 | **${tally.acked.toLocaleString('en-US')}** (${tally.applied} applied, ${tally.duplicate} duplicate; ${tally.resent} resent; ${tally.refused} refused) | — |`,
    `| counted on the primary, the replica and through each instance | 1,183 everywhere | ${everywhere} | each acknowledged like once: **${exact ? 'yes' : 'NO'}** |`,
    `| answers of 5xx the members saw | 61 (503, across the two database outages) | **${results.faults.serverErrors}** (and ${results.faults.noAnswers} pushes with no answer) | fewer; none while a part restarts |`,
    `| parts started again by hand | 4 (instance, PgBouncer, primary, replica) | **0** (the supervisor: ${faults.reduce((sum, fault) => sum + fault.restarted, 0)} restarts) | 0 |`,
    ...faults.map(
      (fault) =>
        `| ${fault.name} at ${seconds(fault.at)}: back / whole again (a like through it; the replica caught up) | no recovery until started by hand | ${seconds(fault.partBackMs)} / **${seconds(fault.wholeMs)}**; ${fault.serverErrors} × 5xx, ${fault.noAnswers} unanswered, longest push ${seconds(fault.longestWaitMs)} | seconds to recover |`,
    ),
  ];
  const body = [dated, '', ...healing].join('\n');
  await writeSection('bench/results.md', 'The cluster heals itself: the fault run (issue 64)', body);
  log(`\n${body}`);
  if (!exact) process.exitCode = 1;
}
