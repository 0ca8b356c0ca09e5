#!/usr/bin/env node
// `npm run bench:search`: the server's search at 100,000 approved posts and 300,000 replies, on the
// embedded PGlite and on a throwaway PostgreSQL, through its HTTP API on 127.0.0.1 (bounded: 25
// minutes at most). Each worst case is asked 20 times after one warm-up, one at a time, from the
// request to the whole JSON answer read: p50 / p95. Then, while one client searches for a word in
// every post without pause for 10 s, another asks /api/health and a third likes a post every 50 ms:
// their p50 / p99 (what a member feels while someone searches heavily); the same during a first pull
// of everything, during 1 MB pushes and during a flood under the default limits. Prints JSON and writes
// bench/search-results.json; the figures go to bench/results.md by hand. Needs `npm run build`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres.mjs';
import { percentile, Session, startServer } from './server/harness.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const REPLIES_EACH = 3;
const RUNS = 20;
const only = process.env.BENCH_ENGINE; // 'pglite' or 'postgres'

const WORDS = ['panel', 'survey', 'weighting', 'attrition', 'incentive', 'fieldwork', 'sampling', 'coding', 'diary', 'segment'];
const FORTY = Array.from({ length: 40 }, (_, i) => `${WORDS[i % WORDS.length]}${i < WORDS.length ? '' : i}`).join(' ');
/** The worst cases of the issue: a word in every post, a word left out, forty words, filters; and a rare word. */
const QUERIES = {
  'a word in every post ("paragraph")': 'paragraph',
  'a word in every reply ("agreed")': 'agreed',
  'a word left out ("-wombat")': '-wombat',
  'forty words': FORTY,
  'a word with four filters': 'paragraph author:seeded category:trends tag:bench',
  'a rare word ("wombat", 100 posts)': 'wombat',
};

/** 100,000 approved posts (ten words in turn, "wombat" in one of 1,000) and three replies each. */
async function seed(query) {
  const [head] = await query('SELECT seq, last_post_id FROM change_head');
  const seq = Number(head.seq);
  const id = Math.max(Number(head.last_post_id), Date.now()) + 1;
  const words = `(ARRAY[${WORDS.map((word) => `'${word}'`).join(', ')}])`;
  await query(
    `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
     SELECT $1::bigint + n, 'Seeded post ' || n || ' on ' || ${words}[1 + n % 10],
       'A realistic paragraph of content about ' || ${words}[1 + (n / 10) % 10] || ' and ' || ${words}[1 + (n / 100) % 10] || '. '
         || repeat('Some more words of the study, and what we learned. ', 8) || CASE WHEN n % 1000 = 7 THEN ' A wombat.' ELSE '' END,
       'Trends', 'Seeded', 'seeded@bench.example', 'user', 0, ${REPLIES_EACH}, 0, 'Just now', false, '["bench"]'::jsonb, 'approved', $2::bigint + n
     FROM generate_series(1, $3::int) AS n`,
    [id, seq, POSTS],
  );
  await query(
    `INSERT INTO replies (id, post_id, author, author_email, author_role, content, quote_id, created_at, edited_at, state, seq)
     SELECT gen_random_uuid(), $1::bigint + n, 'Replier', 'replier@bench.example', 'user',
       'Agreed: we saw the same with ' || ${words}[1 + (n + r) % 10] || ' in our ' || ${words}[1 + (n * r) % 10] || ' work.',
       NULL, $4::bigint + n * 3 + r, NULL, 'visible', $2::bigint + $3::int + n
     FROM generate_series(1, $3::int) AS n, generate_series(1, ${REPLIES_EACH}) AS r`,
    [id, seq, POSTS, Date.now()],
  );
  await query('UPDATE change_head SET seq = $1, last_post_id = $2', [seq + 2 * POSTS, id + POSTS]);
  // Planner statistics, as PostgreSQL's autovacuum (or PGlite's start-up) would gather them.
  for (const table of ['posts', 'replies', 'post_search', 'reply_search']) await query(`ANALYZE ${table}`);
}

const timed = async (run) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};
const figures = (values) => ({
  p50: Math.round(percentile(values, 50)),
  p95: Math.round(percentile(values, 95)),
  p99: Math.round(percentile(values, 99)),
});

async function measure(server) {
  const member = new Session(server.url);
  await member.signIn('searcher@bench.example');
  const search = (q) => member.send('GET', `/api/search?q=${encodeURIComponent(q)}`);
  const worst = {};
  for (const [name, q] of Object.entries(QUERIES)) {
    const answer = await search(q); // warm-up
    const times = [];
    for (let run = 0; run < RUNS; run += 1) times.push(await timed(() => search(q)));
    worst[name] = { ...figures(times), found: `${answer.total}${answer.more ? '+' : ''}` };
  }
  const { posts } = await search('wombat');
  const postId = posts[0].id;
  let address = 0;
  const newMember = async (email) => {
    const session = new Session(server.url);
    address += 1;
    await session.signIn(email, undefined, `10.39.0.${address}`);
    return session;
  };
  const likers = [await newMember('liker@bench.example')];
  /** Runs `work` again and again for `seconds` while health (every 20 ms) and the likers' likes (each every `likeEvery` ms) are timed. */
  const during = async (work, { seconds = 10, likeEvery = 50 } = {}) => {
    const health = [];
    const likes = [];
    const done = [];
    const until = Date.now() + seconds * 1000;
    const loop = async (pause, run, into) => {
      while (Date.now() < until) {
        into.push(await timed(run));
        if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
      }
    };
    await Promise.all([
      loop(0, work, done),
      loop(20, () => new Session(server.url).send('GET', '/api/health'), health),
      ...likers.map((liker) => loop(likeEvery, () => liker.push({ id: randomUUID(), type: 'like', postId, count: 1 }), likes)),
    ]);
    return {
      runs: done.length,
      work: figures(done),
      health: figures(health),
      like: { ...figures(likes), p90: Math.round(percentile(likes, 90)), count: likes.length },
    };
  };
  // While one member searches "paragraph" without pause.
  const duringHeavySearch = await during(() => search('paragraph'));
  // While a new device pulls the whole forum (every post and reply, pages of 1,000 rows) again and again.
  const puller = await newMember('puller@bench.example');
  const duringFirstPull = await during(async () => {
    let after = 0;
    for (let more = true; more;) {
      const page = await puller.send('GET', `/api/changes?after=${after}&limit=1000`);
      after = page.cursor;
      more = page.more;
    }
  });
  // While a member pushes 1 MB again and again: 100 replies of 10,000 characters each.
  const writer = await newMember('writer@bench.example');
  const long = 'A long reply about fieldwork and weighting, as members write them. '.repeat(150).slice(0, 10_000);
  const duringMegabytePush = await during(() =>
    writer.push(...Array.from({ length: 100 }, () => ({ id: randomUUID(), type: 'reply', postId, content: long }))),
  );
  // A flood under the forum's own limits (pushes and operations back to their defaults): one new
  // member pushes 100 views from four loops without pause (answered 429 once over its limits), while
  // four other members like a post, each every 600 ms (within their own limits).
  const admin = new Session(server.url);
  await admin.signIn('admin@insightexchange.app', 'bench-admin');
  const { defaults } = await admin.send('GET', '/api/admin/limits');
  for (const name of ['pushes_per_10_seconds', 'operations_per_minute'])
    await admin.send('PUT', '/api/admin/limits', { name, rule: defaults[name] });
  for (let n = 2; n <= 4; n += 1) likers.push(await newMember(`liker${n}@bench.example`));
  const flooder = await newMember('flooder@bench.example');
  const flood = { sent: 0, refused: 0 };
  const floodOnce = async () => {
    flood.sent += 1;
    await flooder
      .push(...Array.from({ length: 100 }, () => ({ id: randomUUID(), type: 'view', postId })))
      .catch(() => (flood.refused += 1));
  };
  const duringFlood = await during(() => Promise.all([floodOnce(), floodOnce(), floodOnce(), floodOnce()]), {
    seconds: 15,
    likeEvery: 600,
  });
  return { worst, duringHeavySearch, duringFirstPull, duringMegabytePush, duringFlood: { ...duringFlood, pushes: flood } };
}

const results = {
  posts: POSTS,
  replies: POSTS * REPLIES_EACH,
  load: os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' '),
};
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-search-'));
let database;
try {
  if (only !== 'postgres') {
    // BENCH_DATA_DIR: a folder seeded by an earlier run (kept), else a new one seeded here.
    const dataDir = process.env.BENCH_DATA_DIR ?? join(temporary, 'pglite');
    if (!process.env.BENCH_DATA_DIR) {
      mkdirSync(dataDir);
      await (await startServer({ DATA_DIR: dataDir })).stop(); // the schema, the samples and the admin
      const pglite = await PGlite.create({ dataDir });
      const started = Date.now();
      await seed(async (text, params) => (await pglite.query(text, params)).rows);
      results.pgliteSeedSeconds = Math.round((Date.now() - started) / 1000);
      await pglite.close();
    }
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      results.pglite = await measure(server);
    } finally {
      await server.stop();
    }
  }
  if (only !== 'pglite') {
    database = await startPostgres({ durable: true });
    const server = await startServer({ DATABASE_URL: database.url });
    try {
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      await seed((text, params) => sql.unsafe(text, params));
      await sql.end();
      results.postgres = await measure(server);
    } finally {
      await server.stop();
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
writeFileSync('bench/search-results.json', JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
