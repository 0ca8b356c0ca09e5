#!/usr/bin/env node
// `npm run bench:memory`: the server's resident memory (issue 24). Starts the production server
// (package.json's serve script: node --v8-pool-size=1 dist-server/server.js, as `npm start` does after
// its build) on 127.0.0.1:4700 and reads
// /proc/<pid>/status of it and of every process it spawns, every 20 ms:
//   (a) first start on an empty DATA_DIR: the peak from spawn until /api/health answers, then VmRSS
//       idle 10 s after that answer;
//   (b) warm start on the folder (a) made: VmRSS idle 10 s after /api/health answers, then after a
//       sign-in and a full pull (every page of /api/changes), 5 s later;
//   (c) DATABASE_URL to a throwaway PostgreSQL (scripts/postgres.mjs, durable defaults), a new empty
//       database each run: the same figures for the server process (PostgreSQL's own processes,
//       started by pg_ctl outside this process tree, are not counted).
// Each row is the median of BENCH_RUNS runs (default 3), each on a new folder / a new database.
// The figures go to the "Server memory (issue 24)" section of bench/results.md (BENCH_WRITE=0 skips).
// Needs `npm run build` (bench:memory does it). Bounded: a start has 120 s, the whole bench 15 min.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres.mjs';
import { Session, startServer } from './server/harness.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = process.env.BENCH_MEMORY_PORT ?? '4700';
const IDLE_MS = 10_000;
const AFTER_REQUESTS_MS = 5_000;
const deadline = Date.now() + 15 * 60_000;
const chosen = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()); // embedded,postgres
const want = (row) => !chosen || chosen.includes(row);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const mb = (kb) => Math.round(kb / 102.4) / 10;

/** VmRSS and VmHWM (kB) of `pid`, or undefined once it has exited. */
function status(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0), hwm: Number(/VmHWM:\s+(\d+)/.exec(text)?.[1] ?? 0) };
  } catch {
    return undefined;
  }
}

/** The processes descending from this benchmark (the server and whatever it spawns). */
function descendants(root = process.pid) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited between readdir and read
    }
  }
  const found = [];
  const walk = (pid) => {
    for (const [child, parent] of parents)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

/**
 * Samples every descendant of this process every 20 ms until stop(): the largest sum of their
 * VmRSS at one instant (the machine's need) and each process's own highest VmHWM seen.
 */
function sampler() {
  let peakSum = 0;
  const hwm = new Map();
  let running = true;
  const loop = (async () => {
    while (running) {
      let sum = 0;
      for (const pid of descendants()) {
        const s = status(pid);
        if (!s) continue;
        sum += s.rss;
        hwm.set(pid, Math.max(hwm.get(pid) ?? 0, s.hwm));
      }
      peakSum = Math.max(peakSum, sum);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { peakSum, hwm };
    },
  };
}

async function waitHealthy(url) {
  for (;;) {
    if (Date.now() > deadline) throw new Error('the memory benchmark ran out of time');
    const ok = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(20);
  }
}

/** Sign-in as the admin, then every page of /api/changes. */
async function requests(url) {
  const session = new Session(url);
  await session.signIn('admin@insightexchange.app', 'bench-admin');
  let cursor = 0;
  for (let page = 0; page < 1000; page += 1) {
    const answer = await session.send('GET', `/api/changes?after=${cursor}&limit=500`);
    if (!answer.more) break;
    cursor = answer.cursor;
  }
}

/** One start of the server with `env`: its peak to /api/health, idle 10 s later, and after requests. */
async function oneStart(env) {
  const watch = sampler();
  const server = await startServer({ PORT, ...env }, { limits: 'defaults' }).catch(async (error) => {
    await watch.stop();
    throw error;
  });
  try {
    await waitHealthy(server.url);
    const started = await watch.stop();
    const self = status(server.pid);
    const children = [...started.hwm].filter(([pid]) => pid !== server.pid).map(([, kb]) => kb);
    await sleep(IDLE_MS);
    const idle = status(server.pid).rss;
    await requests(server.url);
    await sleep(AFTER_REQUESTS_MS);
    const after = status(server.pid);
    return {
      peak: mb(Math.max(started.peakSum, self.hwm)),
      serverHwm: mb(self.hwm),
      childHwm: mb(Math.max(0, ...children)),
      idle: mb(idle),
      afterRequests: mb(after.rss),
      hwmAfterRequests: mb(after.hwm),
    };
  } finally {
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function summarise(runs) {
  const keys = Object.keys(runs[0]);
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))]));
}

// Bounded: whatever happens, the benchmark ends (its PostgreSQL and temporary folder removed).
const cleanups = [];
setTimeout(
  () => {
    console.error('The memory benchmark ran out of time (15 minutes).');
    for (const cleanup of cleanups) cleanup();
    process.exit(1);
  },
  15 * 60_000 + 30_000,
).unref();

const results = { at: new Date().toISOString().slice(0, 16).replace('T', ' '), load: os.loadavg()[0].toFixed(1), runs: RUNS };
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-memory-'));
cleanups.push(() => rmSync(temporary, { recursive: true, force: true }));
try {
  if (want('embedded')) {
    const first = [];
    const warm = [];
    for (let run = 0; run < RUNS; run += 1) {
      const dataDir = join(temporary, `data-${run}`);
      mkdirSync(dataDir);
      first.push(await oneStart({ DATA_DIR: dataDir }));
      warm.push(await oneStart({ DATA_DIR: dataDir }));
      console.log(`embedded run ${run + 1}: first ${JSON.stringify(first.at(-1))}\n  warm ${JSON.stringify(warm.at(-1))}`);
    }
    results.first = summarise(first);
    results.warm = summarise(warm);
  }
  if (want('postgres')) {
    const database = await startPostgres({ durable: true });
    cleanups.push(() => database.stop());
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) {
        await admin.unsafe(`CREATE DATABASE memory_${run}`);
        runs.push(await oneStart({ DATABASE_URL: database.url.replace(/\/postgres$/, `/memory_${run}`) }));
        console.log(`postgres run ${run + 1}: ${JSON.stringify(runs.at(-1))}`);
      }
      results.postgres = summarise(runs);
    } finally {
      await admin.end();
      database.stop();
    }
  }
} finally {
  rmSync(temporary, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
if (process.env.BENCH_WRITE !== '0') {
  const file = 'bench/memory-results.json';
  const previous = (() => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return {};
    }
  })();
  writeFileSync(file, `${JSON.stringify({ ...previous, ...results, label: process.env.BENCH_LABEL ?? 'latest' }, null, 2)}\n`);
  console.log(`Figures written to ${file}; bench/results.md's "Server memory (issue 24)" section quotes them.`);
}
