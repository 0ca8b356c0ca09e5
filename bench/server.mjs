#!/usr/bin/env node
// `npm run bench:server`: the server under load through its HTTP API, on the embedded PGlite and on a
// throwaway PostgreSQL (durable settings, fsync on), 127.0.0.1 only, bounded (25 minutes at most).
// The measures are in bench/server/measures.mjs; the method of each is written beside its row in
// the "## Server" section of bench/results.md. Needs `npm run build` (bench:server does it).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres.mjs';
import { startServer } from './server/harness.mjs';
import { announce, firstPull, likesAgainstRaw, likeStorm, seedPosts } from './server/measures.mjs';
import { writeSection } from './server/report.mjs';
import { uiFirstSync } from './server/ui-sync.mjs';

const CLIENTS = 200;
const LIKES_EACH = 50;
const LISTENERS = 1000;
const ROUNDS = 20;
const PULL_POSTS = 100_000;
/** Issue 64, item 3: likes against raw PostgreSQL autocommit, limits off and on: clients at once, seconds each, members per client, rounds. */
const RACE = { clients: 50, seconds: 10, membersEach: 30, rounds: 2 };
const only = process.env.BENCH_ENGINE; // 'pglite' or 'postgres' to run one engine
// BENCH_ONLY=likes,race,announce,two,pull,ui runs only those measures (default: all of them).
// POSTGRES_PORT and BENCH_PORT_BASE choose the ports of the throwaway PostgreSQL and of the servers.
const chosen = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const want = (measure) => !chosen || chosen.includes(measure);

const loadNow = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
/** Runs one measure and stamps it with its time and the load average (1, 5, 15 min) before → after. */
async function measured(run) {
  const [at, load] = [new Date().toISOString().slice(0, 16).replace('T', ' '), loadNow()];
  return { ...(await run()), at, load: `${load} → ${loadNow()}` };
}

const results = { load: loadNow() };
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-data-'));
let database;
try {
  if (only !== 'postgres') {
    const dataDir = join(temporary, 'pglite');
    mkdirSync(dataDir);
    let server = await startServer({ DATA_DIR: dataDir });
    try {
      if (want('likes')) results.pgliteLikes = await measured(() => likeStorm([server.url], CLIENTS, LIKES_EACH, 'liker'));
      if (want('announce')) results.pgliteAnnounce = await measured(() => announce(server, server.url, LISTENERS, ROUNDS));
    } finally {
      await server.stop();
    }
    if (want('pull') || want('ui')) {
      // Seeding writes the data folder while no server has it open (PGlite is single-process).
      const pglite = await PGlite.create({ dataDir });
      await seedPosts(async (text, params) => (await pglite.query(text, params)).rows, PULL_POSTS);
      await pglite.close();
      server = await startServer({ DATA_DIR: dataDir });
      try {
        if (want('pull')) results.pglitePull = await measured(() => firstPull(server, PULL_POSTS));
        if (want('ui')) results.pgliteUi = await measured(() => uiFirstSync(server, PULL_POSTS));
      } finally {
        await server.stop();
      }
    }
  }
  if (only !== 'pglite') {
    database = await startPostgres({ durable: true });
    // One folder for both instances' emails and files: either may send a sign-up's link.
    const shared = join(temporary, 'postgres');
    mkdirSync(shared);
    const one = await startServer({ DATABASE_URL: database.url, DATA_DIR: shared });
    const two = await startServer({ DATABASE_URL: database.url, DATA_DIR: shared });
    try {
      if (want('likes')) results.postgresLikes = await measured(() => likeStorm([one.url], CLIENTS, LIKES_EACH, 'liker'));
      if (want('race')) results.race = await measured(() => likesAgainstRaw(one, database.url, RACE));
      if (want('announce')) results.postgresAnnounce = await measured(() => announce(one, one.url, LISTENERS, ROUNDS));
      if (want('two')) results.twoLikes = await measured(() => likeStorm([one.url, two.url], CLIENTS, LIKES_EACH, 'pair'));
      if (want('two')) results.crossAnnounce = await measured(() => announce(two, one.url, 1, ROUNDS));
      if (want('pull') || want('ui')) {
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        await seedPosts((text, params) => sql.unsafe(text, params), PULL_POSTS);
        await sql.end();
      }
      if (want('pull')) results.postgresPull = await measured(() => firstPull(one, PULL_POSTS));
      if (want('ui')) results.postgresUi = await measured(() => uiFirstSync(one, PULL_POSTS));
    } finally {
      await one.stop();
      await two.stop();
    }
  }
} finally {
  database?.stop();
  rmSync(temporary, { recursive: true, force: true });
}
results.loadAfter = loadNow();
// A run of one engine (BENCH_ENGINE) or of some measures (BENCH_ONLY) keeps the other figures of the last run.
const saved = 'bench/server-results.json';
const partial = only || chosen;
const previous = partial && existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : {};
// The section's header load stays the one of the last full run; each measure carries its own.
const merged = { ...previous, ...results, ...(previous.load ? { load: previous.load, loadAfter: previous.loadAfter } : {}) };
writeFileSync(saved, JSON.stringify(merged, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
await writeSection(merged, { CLIENTS, LIKES_EACH, LISTENERS, ROUNDS, PULL_POSTS, RACE });
