#!/usr/bin/env node
// `npm run bench:following`: following at scale (issue 62, item 5): "on the server, read positions for
// 10,000 members cost pulls and likes nothing measurable". The built server over a throwaway PostgreSQL
// (durable settings), 127.0.0.1 only, bounded (harness.mjs: 25 minutes at most), stops by itself.
//
// 10,000 members with sessions and 10,000 approved posts are seeded straight into the database (not
// measured). Then three phases, each measured the same way: **before** (no follows, no read
// positions), **after** (10,000 members x 10 read positions each: 100,000 post_reads rows, and 10,000
// follows, one per member, each under a change number of its own above every post's), and **before
// again** (both tables emptied: the machine is shared and its load drifts; the two "before" rows bound it).
// - Pull: PULLS pulls of the newest changes (after = head - 50: what a device that was away a little
//   asks), each by another member, one after another; from the request sent to its JSON parsed, p50/p95.
// - First pull: one member's pull of every page from cursor 0 (10,000 posts, pages of 1,000), median of 3.
// - Likes: LIKERS members push LIKES_EACH single likes each, all at once, on one post; likes/s from the
//   first push sent to the last answer, and each push's p50/p95.
// The plan of the read positions' part of a pull is kept with the figures (an index scan of
// post_reads_user_seq: a member's pull reads their own rows only). Figures go to bench/following-results.json; the rows of bench/results.md ("Following at scale") are
// written from it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres.mjs';
import { percentile, Session, startServer } from './server/harness.mjs';
import { seedPosts } from './server/measures.mjs';

const MEMBERS = 10_000;
const POSTS = 10_000;
const READS_EACH = 10;
const PULLS = 300;
const FIRST_PULLS = 3;
const LIKERS = 40;
const LIKES_EACH = 25;
const PROTOCOL = '8';

const loadNow = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const stamp = () => new Date().toISOString().slice(0, 16).replace('T', ' ');

/** The members and one session each; their session tokens in order. */
async function seedMembers(sql) {
  const users = await sql.unsafe(
    `INSERT INTO users (email, name, role, password_hash, member_id, name_key)
     SELECT 'reader' || n || '@bench.example', 'Reader ' || n, 'user', 'seeded', md5('reader' || n), 'reader ' || n
     FROM generate_series(0, $1::int - 1) AS n RETURNING id, email`,
    [MEMBERS],
  );
  const idOf = new Map(users.map((row) => [row.email, String(row.id)]));
  const tokens = [];
  const sessions = [];
  for (let index = 0; index < MEMBERS; index += 1) {
    const token = randomBytes(32).toString('base64url');
    tokens.push(token);
    sessions.push([createHash('sha256').update(token).digest('hex'), idOf.get(`reader${index}@bench.example`)]);
  }
  await sql.unsafe(
    `INSERT INTO sessions (token_hash, user_id, expires_at, public_id, last_seen_at)
     SELECT s->>0, (s->>1)::bigint, now() + interval '1 day', md5(s->>0), 0 FROM jsonb_array_elements($1::text::jsonb) s`,
    [JSON.stringify(sessions)],
  );
  return tokens;
}

/**
 * Every member's READS_EACH read positions (in posts spread over the forum) and one follow (a post,
 * watching), each row under a change number of its own, as if each had been pushed.
 */
async function seedFollowing(sql) {
  const [head] = await sql.unsafe('SELECT seq FROM change_head');
  const seq = Number(head.seq);
  const posts = await sql.unsafe(`SELECT id FROM posts WHERE status = 'approved' ORDER BY id`);
  const ids = posts.map((row) => String(row.id));
  await sql.unsafe(
    `INSERT INTO post_reads (user_id, post_id, read_to, at, seq)
     SELECT u.id, (($1::text::jsonb) ->> ((u.rank * $2::int + r) % $3::int))::bigint, 0, 0, $4::bigint + u.rank * $2::int + r + 1
     FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS rank FROM users WHERE email LIKE 'reader%@bench.example') u,
       generate_series(0, $2::int - 1) r`,
    [JSON.stringify(ids), READS_EACH, ids.length, seq],
  );
  const reads = MEMBERS * READS_EACH;
  await sql.unsafe(
    `INSERT INTO follows (user_id, kind, target, level, at, seq)
     SELECT u.id, 'post', ($1::text::jsonb) ->> ((u.rank * 7) % $2::int), 'watching', 0, $3::bigint + u.rank + 1
     FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS rank FROM users WHERE email LIKE 'reader%@bench.example') u`,
    [JSON.stringify(ids), ids.length, seq + reads],
  );
  await sql.unsafe('UPDATE change_head SET seq = $1', [seq + reads + MEMBERS]);
  await sql.unsafe('VACUUM ANALYZE post_reads');
  await sql.unsafe('VACUUM ANALYZE follows');
  const [counts] = await sql.unsafe(
    'SELECT (SELECT count(*) FROM post_reads)::int AS reads, (SELECT count(*) FROM follows)::int AS follows',
  );
  return counts;
}

function session(server, token) {
  const one = new Session(server.url);
  one.cookie = `ie_session=${token}`;
  return one;
}

/** PULLS pulls of the newest changes, each by another member. */
async function newestPulls(server, sql, tokens) {
  const [head] = await sql.unsafe('SELECT seq FROM change_head');
  const after = Math.max(0, Number(head.seq) - 50);
  const times = [];
  for (let pull = 0; pull < PULLS; pull += 1) {
    const reader = session(server, tokens[(pull * 97) % MEMBERS]);
    const sent = performance.now();
    const page = await reader.send('GET', `/api/changes?after=${after}&limit=1000`, undefined, { 'x-insight-protocol': PROTOCOL });
    times.push(performance.now() - sent);
    if (!Array.isArray(page.posts)) throw new Error('a pull answered no posts');
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** One member's pull of every page from cursor 0, FIRST_PULLS times: the median. */
async function firstPulls(server, token) {
  const runs = [];
  for (let run = 0; run < FIRST_PULLS; run += 1) {
    const reader = session(server, token);
    let cursor = 0;
    let posts = 0;
    let reads = 0;
    const started = performance.now();
    for (let more = true; more;) {
      const page = await reader.send('GET', `/api/changes?after=${cursor}&limit=1000`, undefined, { 'x-insight-protocol': PROTOCOL });
      posts += page.posts.length;
      reads += page.reads.length;
      cursor = page.cursor;
      more = page.more;
    }
    runs.push({ ms: performance.now() - started, posts, reads });
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(runs.length / 2)];
}

/** LIKERS members push LIKES_EACH likes each, all at once, on one post. */
async function likes(server, sql, tokens, postId) {
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LIKERS }, async (_, index) => {
      const liker = session(server, tokens[index]);
      for (let like = 0; like < LIKES_EACH; like += 1) {
        const sent = performance.now();
        const answer = await liker.push({ id: randomUUID(), type: 'like', postId });
        latencies.push(performance.now() - sent);
        if (answer.results[0].status !== 'applied') throw new Error(`like refused: ${JSON.stringify(answer.results[0])}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { likesPerSecond: (LIKERS * LIKES_EACH) / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** The plan of a pull's read positions for one member among the 100,000 rows (the `reads` kind of server/db/sync/changes.ts). */
async function explainReads(sql) {
  const [member] = await sql.unsafe(`SELECT id FROM users WHERE email = 'reader5000@bench.example'`);
  const rows = await sql.unsafe(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT y.post_id, y.read_to, y.seq FROM post_reads y
     WHERE y.seq > 0 AND y.seq <= (SELECT seq FROM change_head) AND y.user_id = $1 ORDER BY y.seq LIMIT 1001`,
    [member.id],
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

async function phase(name, server, sql, tokens, postId) {
  const load = loadNow();
  const result = {
    name,
    at: stamp(),
    pull: await newestPulls(server, sql, tokens),
    firstPull: await firstPulls(server, tokens[1]),
    likes: await likes(server, sql, tokens, postId),
  };
  result.load = `${load} → ${loadNow()}`;
  console.log(JSON.stringify(result));
  return result;
}

const results = { machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`.trim(), phases: [] };
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-following-'));
let database;
let server;
let sql;
try {
  database = await startPostgres({ durable: true });
  server = await startServer({ DATABASE_URL: database.url, DATA_DIR: temporary });
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const tokens = await seedMembers(sql);
  await seedPosts((text, params) => sql.unsafe(text, params), POSTS);
  await sql.unsafe('VACUUM ANALYZE');
  const [liked] = await sql.unsafe(`SELECT max(id) AS id FROM posts`);
  const postId = Number(liked.id);
  results.phases.push(await phase('before', server, sql, tokens, postId));
  results.seeded = await seedFollowing(sql);
  results.phases.push(await phase('after', server, sql, tokens, postId));
  results.plan = await explainReads(sql);
  await sql.unsafe('TRUNCATE post_reads, follows');
  await sql.unsafe('VACUUM ANALYZE post_reads');
  await sql.unsafe('VACUUM ANALYZE follows');
  results.phases.push(await phase('before again', server, sql, tokens, postId));
} finally {
  await sql?.end();
  await server?.stop();
  database?.stop();
  rmSync(temporary, { recursive: true, force: true });
}
results.loadAfter = loadNow();
writeFileSync('bench/following-results.json', JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
