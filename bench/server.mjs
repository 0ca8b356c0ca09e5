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
import { announce, firstPull, likeStorm, seedPosts } from './server/measures.mjs';
import { writeSection } from './server/report.mjs';

const CLIENTS = 200;
const LIKES_EACH = 50;
const LISTENERS = 1000;
const ROUNDS = 20;
const PULL_POSTS = 100_000;
const only = process.env.BENCH_ENGINE; // 'pglite' or 'postgres' to run one engine

const results = {
  load: os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' '),
};
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-data-'));
let database;
try {
  if (only !== 'postgres') {
    const dataDir = join(temporary, 'pglite');
    mkdirSync(dataDir);
    let server = await startServer({ DATA_DIR: dataDir });
    try {
      results.pgliteLikes = await likeStorm([server.url], CLIENTS, LIKES_EACH, 'liker');
      results.pgliteAnnounce = await announce(server, server.url, LISTENERS, ROUNDS);
    } finally {
      await server.stop();
    }
    // Seeding writes the data folder while no server has it open (PGlite is single-process).
    const pglite = await PGlite.create({ dataDir });
    await seedPosts(async (text, params) => (await pglite.query(text, params)).rows, PULL_POSTS);
    await pglite.close();
    server = await startServer({ DATA_DIR: dataDir });
    try {
      results.pglitePull = await firstPull(server, PULL_POSTS);
    } finally {
      await server.stop();
    }
  }
  if (only !== 'pglite') {
    database = await startPostgres({ durable: true });
    const one = await startServer({ DATABASE_URL: database.url });
    const two = await startServer({ DATABASE_URL: database.url });
    try {
      results.postgresLikes = await likeStorm([one.url], CLIENTS, LIKES_EACH, 'liker');
      results.postgresAnnounce = await announce(one, one.url, LISTENERS, ROUNDS);
      results.twoLikes = await likeStorm([one.url, two.url], CLIENTS, LIKES_EACH, 'pair');
      results.crossAnnounce = await announce(two, one.url, 1, ROUNDS);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      await seedPosts((text, params) => sql.unsafe(text, params), PULL_POSTS);
      await sql.end();
      results.postgresPull = await firstPull(one, PULL_POSTS);
    } finally {
      await one.stop();
      await two.stop();
    }
  }
} finally {
  database?.stop();
  rmSync(temporary, { recursive: true, force: true });
}
results.loadAfter = os
  .loadavg()
  .map((value) => value.toFixed(1))
  .join(' ');
// A run of one engine (BENCH_ENGINE) keeps the other engine's figures from the last run.
const saved = 'bench/server-results.json';
const merged = { ...(only && existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : {}), ...results };
if (only) merged[`load_${only}`] = `${results.load} → ${results.loadAfter}`;
writeFileSync(saved, JSON.stringify(merged, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
writeSection(merged, { CLIENTS, LIKES_EACH, LISTENERS, ROUNDS, PULL_POSTS });
