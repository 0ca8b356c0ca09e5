#!/usr/bin/env node
// `npm run bench:search`: the server's search at 100,000 approved posts and 300,000 replies, on the
// embedded PGlite and on a throwaway PostgreSQL, through its HTTP API on 127.0.0.1 (bounded: 25
// minutes at most). Each worst case is asked 20 times after one warm-up, one at a time, from the
// request to the whole JSON answer read: p50 / p95. Then, while one client searches for a word in
// every post without pause for 10 s, another asks /api/health and a third likes a post every 50 ms:
// their p50 / p99 (what a member feels while someone searches heavily). Prints JSON and writes
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
  // While one member searches without pause: health and another member's like.
  const liker = new Session(server.url);
  await liker.signIn('liker@bench.example');
  const { posts } = await search('wombat');
  const postId = posts[0].id;
  const health = [];
  const likes = [];
  const heavy = [];
  const until = Date.now() + 10_000;
  const loop = async (pause, run, into) => {
    while (Date.now() < until) {
      into.push(await timed(run));
      if (pause) await new Promise((done) => setTimeout(done, pause));
    }
  };
  await Promise.all([
    loop(0, () => search('paragraph'), heavy),
    loop(20, () => new Session(server.url).send('GET', '/api/health'), health),
    loop(50, () => liker.push({ id: randomUUID(), type: 'like', postId, count: 1 }), likes),
  ]);
  return { worst, duringHeavySearch: { searches: heavy.length, search: figures(heavy), health: figures(health), like: figures(likes) } };
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
    const dataDir = join(temporary, 'pglite');
    mkdirSync(dataDir);
    await (await startServer({ DATA_DIR: dataDir })).stop(); // the schema, the samples and the admin
    const pglite = await PGlite.create({ dataDir });
    const started = Date.now();
    await seed(async (text, params) => (await pglite.query(text, params)).rows);
    results.pgliteSeedSeconds = Math.round((Date.now() - started) / 1000);
    await pglite.close();
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
