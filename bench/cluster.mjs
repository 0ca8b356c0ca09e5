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
// The measures are bench/server/measures.mjs's, as `npm run bench:server` runs them on one instance.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import postgres from 'postgres';
import { startCluster } from '../scripts/cluster.mjs';
import { openLimits, Session } from './server/harness.mjs';
import { announce, firstPull, likeStorm, rawAutocommit, seedPosts } from './server/measures.mjs';
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

const results = { load: loadNow() };
log('starting the cluster…');
// Its thousands of clients all come from 127.0.0.1 through HAProxy: the per-address cap is lifted.
const cluster = await startCluster({ adminPassword: 'bench-admin', log, env: { MAX_CONNECTIONS_PER_ADDRESS: '1000000' } });
const deadline = setTimeout(() => {
  console.error('bench:cluster: over 25 minutes, stopping');
  void cluster.stop().then(() => process.exit(1));
}, 25 * 60_000);
try {
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
const body = [
  `Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${os.cpus().length} cores · Node ${process.version} · \`npm run bench:cluster\` · load average ${results.load} → ${results.loadAfter}`,
  '',
  ...rows,
].join('\n');
await writeSection('bench/results.md', 'The cluster: three instances, PgBouncer, a replica (issue 43)', body);
log(`\n${body}`);
