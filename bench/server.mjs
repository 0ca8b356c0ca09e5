#!/usr/bin/env node
// `npm run bench:server`: the server's throughput and latency through its HTTP API, on the embedded
// PGlite and on a throwaway PostgreSQL (started here, durable settings), 127.0.0.1 only, bounded:
//   likes/s: 50 signed-in clients × 20 single-like pushes on one post, all clients at once
//            (from the first push sent to the last answer received; the count must be 1,000);
//   push p50/p99: the latency of those 1,000 pushes (request sent → answer parsed);
//   first pull: a member with 10,000 posts pulls from cursor 0 in pages of 1,000 until `more` is false.
// Writes the "## Server" section of bench/results.md. Needs `npm run build` (bench:server does it).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../scripts/postgres.mjs';

const DEADLINE = Date.now() + 10 * 60_000;
const CLIENTS = 50;
const LIKES_EACH = 20;
const PULL_POSTS = 10_000;

function startServer(env) {
  const child = spawn(process.execPath, ['dist-server/server.js'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-admin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${output}`));
    }, 120_000);
    const onData = (chunk) => {
      output += chunk;
      const url = /Insight Exchange listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

class Session {
  constructor(url) {
    this.url = url;
    this.cookie = '';
  }
  async send(method, path, body) {
    if (Date.now() > DEADLINE) throw new Error('the benchmark ran out of time');
    const response = await fetch(this.url + path, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json', origin: this.url } : {}), cookie: this.cookie },
      body: body ? JSON.stringify(body) : undefined,
    });
    const cookie = response.headers.get('set-cookie');
    if (cookie) this.cookie = cookie.split(';')[0];
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }
  signIn(email, password = 'bench-password') {
    return this.send('POST', '/api/session', { mode: 'signin', email, password });
  }
  push(...ops) {
    return this.send('POST', '/api/ops', { ops });
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function measure(url) {
  const admin = new Session(url);
  await admin.signIn('admin@insightexchange.app', 'bench-admin');
  const created = await admin.push({ id: randomUUID(), type: 'create', post: { title: 'Bench', content: 'Likes', category: 'Trends' } });
  const postId = created.results[0].postId;
  await admin.push({ id: randomUUID(), type: 'approve', postId });

  const clients = [];
  for (let index = 0; index < CLIENTS; index += 1) {
    const client = new Session(url);
    await client.signIn(`liker${index}@bench.example`);
    clients.push(client);
  }
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let like = 0; like < LIKES_EACH; like += 1) {
        const sent = performance.now();
        const answer = await client.push({ id: randomUUID(), type: 'like', postId });
        latencies.push(performance.now() - sent);
        if (answer.results[0].status !== 'applied') throw new Error(`like refused: ${JSON.stringify(answer.results[0])}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const pulled = await admin.send('GET', '/api/changes?after=0&limit=1000');
  const likes = pulled.posts.find((post) => post.id === postId)?.likes;
  if (likes !== CLIENTS * LIKES_EACH) throw new Error(`expected ${CLIENTS * LIKES_EACH} likes, found ${likes}`);
  latencies.sort((a, b) => a - b);

  const writer = new Session(url);
  await writer.signIn('writer@bench.example');
  const writeStarted = performance.now();
  for (let batch = 0; batch < PULL_POSTS / 100; batch += 1) {
    const ops = Array.from({ length: 100 }, (_, index) => ({
      id: randomUUID(),
      type: 'create',
      post: { title: `Bench post ${batch * 100 + index}`, content: 'A realistic paragraph of content. '.repeat(12), category: 'Trends' },
    }));
    await writer.push(...ops);
  }
  const createsPerSecond = PULL_POSTS / ((performance.now() - writeStarted) / 1000);
  const reader = new Session(url);
  await reader.signIn('writer@bench.example');
  const pullStarted = performance.now();
  let cursor = 0;
  let count = 0;
  let pages = 0;
  for (let more = true; more; pages += 1) {
    const page = await reader.send('GET', `/api/changes?after=${cursor}&limit=1000`);
    count += page.posts.filter((post) => post.authorEmail === 'writer@bench.example').length;
    ({ cursor, more } = page);
  }
  const pullMs = performance.now() - pullStarted;
  if (count !== PULL_POSTS) throw new Error(`the pull returned ${count} of ${PULL_POSTS} posts`);
  return { likesPerSecond: (CLIENTS * LIKES_EACH) / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), pullMs, pages, createsPerSecond };
}

const results = {};
const dataDir = mkdtempSync(join(os.tmpdir(), 'ie-bench-data-'));
let postgres;
try {
  const embedded = await startServer({ DATA_DIR: dataDir });
  try {
    results.PGlite = await measure(embedded.url);
  } finally {
    await embedded.stop();
  }
  postgres = await startPostgres({ durable: true });
  const server = await startServer({ DATABASE_URL: postgres.url });
  try {
    results['PostgreSQL 15'] = await measure(server.url);
  } finally {
    await server.stop();
  }
} finally {
  postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const rows = Object.entries(results).map(
  ([engine, r]) =>
    `| ${engine} | ${Math.round(r.likesPerSecond)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${Math.round(r.pullMs)} ms (${r.pages} pages) | ${Math.round(r.createsPerSecond)} |`,
);
const section = `
## Server

Produced by \`npm run bench:server\` (bench/server.mjs) on ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
The built server (\`dist-server/server.js\`) runs as its own process on 127.0.0.1; the client is
Node's fetch in the benchmark process, on the same machine.

- **likes/s**: ${CLIENTS} signed-in clients push ${LIKES_EACH} single-like operations each, one after another,
  all clients at once; from the first push sent to the last answer; the post must then count exactly ${CLIENTS * LIKES_EACH}.
- **push p50 / p99**: latency of those ${CLIENTS * LIKES_EACH} pushes, from sending the request to parsing the answer.
- **first pull**: a member who wrote ${PULL_POSTS.toLocaleString('en-US')} posts signs in again and pulls from cursor 0
  in pages of 1,000 until \`more\` is false (from the first request to the last page parsed).
- **creates/s**: the ${PULL_POSTS.toLocaleString('en-US')} posts pushed in batches of 100 operations.
- PGlite keeps its files in a temporary DATA_DIR; PostgreSQL 15 is a throwaway server with its
  default (durable) settings, fsync on.

| engine | likes/s | push p50 | push p99 | first pull of ${PULL_POSTS.toLocaleString('en-US')} posts | creates/s |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
const current = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '# Benchmark results\n';
writeFileSync('bench/results.md', current.replace(/\n## Server\n[\s\S]*$/, '').trimEnd() + '\n' + section);
console.log(section);
