#!/usr/bin/env node
// `npm run bench:spaces`: private spaces at scale (issue 61, item 6), on the built server over a throwaway
// PostgreSQL (durable settings), 127.0.0.1 only, bounded (harness.mjs: 25 minutes at most), stops by itself.
//
// (a) 10,000 live streams (real SSE connections, /api/events) of 1,000 members in 100 groups (10 members
//     each, 10 streams per member: the server's cap per session): each of 40 rounds, a member of one group
//     likes or replies to a post in that group's private category. Latency: from the push sent (before the
//     commit: an upper bound of commit → heard) until the last of the group's 100 streams announced a
//     cursor at or past that change. Then a public change that every stream must hear (the fence), and the
//     count of streams outside the group told of each private change (must be 0).
// (b) a first pull of 100,000 posts (protocol 7), pages of 1,000 from cursor 0 until `more` is false, with
//     20 % of them (every fifth) in the 100 private categories, by a member in 3 groups and by a member in
//     none; the reference is today's forum: the same posts with the rooms seen by everyone. The three
//     interleaved, 3 times. Each page: from the request sent to its JSON parsed, and the bytes of its body.
// Members, sessions, groups and categories are seeded straight into the database (not measured); the
// server is the production build (`npm run build` first; bench:spaces does it). Figures go to
// bench/spaces-results.json; the rows in bench/results.md ("Private spaces at scale") are written from it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres.mjs';
import { listen, percentile, rssMb, Session, startServer } from './server/harness.mjs';
import { seedPosts } from './server/measures.mjs';

const GROUPS = 100;
const MEMBERS_PER_GROUP = 10;
const STREAMS_PER_MEMBER = 10;
const ROUNDS = 40;
const POSTS = 100_000;
const PAGE = 1000;
const PULL_RUNS = 3;

const loadNow = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const stamp = () => new Date().toISOString().slice(0, 16).replace('T', ' ');

/** Members, their sessions (one each), the groups and their private categories, and one post per category. */
async function seedSpaces(sql) {
  const tokens = [];
  const members = GROUPS * MEMBERS_PER_GROUP;
  const users = await sql.unsafe(
    `INSERT INTO users (email, name, role, password_hash, member_id, name_key)
     SELECT 'space' || n || '@bench.example', 'Space member ' || n, 'user', 'seeded', md5('space' || n), 'space member ' || n
     FROM generate_series(0, $1::int - 1) AS n RETURNING id, email`,
    [members + 2],
  );
  const idOf = new Map(users.map((row) => [row.email, String(row.id)]));
  const sessions = [];
  for (let index = 0; index < members + 2; index += 1) {
    const token = randomBytes(32).toString('base64url');
    tokens.push(token);
    sessions.push([createHash('sha256').update(token).digest('hex'), idOf.get(`space${index}@bench.example`)]);
  }
  await sql.unsafe(
    `INSERT INTO sessions (token_hash, user_id, expires_at, public_id, last_seen_at)
     SELECT s->>0, (s->>1)::bigint, now() + interval '1 day', md5(s->>0), 0 FROM jsonb_array_elements($1::text::jsonb) s`,
    [JSON.stringify(sessions)],
  );
  const [head] = await sql.unsafe('SELECT seq FROM change_head');
  const seq = Number(head.seq) + 1;
  await sql.unsafe(
    `INSERT INTO groups (id, name, name_key, description, created_at, updated_at, seq)
     SELECT 'bench-group-' || g, 'Bench group ' || g, 'bench group ' || g, '', 0, 0, $1::bigint FROM generate_series(0, $2::int - 1) g`,
    [seq, GROUPS],
  );
  // Member n is in group n / 10; member 1,000 ("some") in groups 0, 1 and 2; member 1,001 ("none") in none.
  await sql.unsafe(
    `INSERT INTO group_members (group_id, user_id, in_group, at, seq)
     SELECT 'bench-group-' || (n / $2::int), u.id, true, 0, $1::bigint FROM generate_series(0, $3::int - 1) n JOIN users u ON u.email = 'space' || n || '@bench.example'
     UNION ALL SELECT 'bench-group-' || g, u.id, true, 0, $1::bigint FROM generate_series(0, 2) g JOIN users u ON u.email = 'space' || $3::int || '@bench.example'`,
    [seq, MEMBERS_PER_GROUP, members],
  );
  await sql.unsafe(
    `INSERT INTO categories (id, name, name_key, position, see_groups, seq)
     SELECT 'bench-room-' || g, 'Bench room ' || g, 'bench room ' || g, 10 + g, ARRAY['bench-group-' || g], $1::bigint FROM generate_series(0, $2::int - 1) g`,
    [seq, GROUPS],
  );
  // One approved post per room, by its group's first member.
  const [ids] = await sql.unsafe('SELECT last_post_id FROM change_head');
  const firstId = Math.max(Number(ids.last_post_id), Date.now()) + 1;
  await sql.unsafe(
    `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
     SELECT $1::bigint + g, 'Room post ' || g, 'Inside the room.', 'bench-room-' || g, 'Space member ' || (g * $3::int),
       'space' || (g * $3::int) || '@bench.example', 'user', 0, 0, 0, 'Just now', false, '[]'::jsonb, 'approved', $2::bigint
     FROM generate_series(0, $4::int - 1) g`,
    [firstId, seq, MEMBERS_PER_GROUP, GROUPS],
  );
  await sql.unsafe('UPDATE change_head SET seq = $1, last_post_id = $2', [seq, firstId + GROUPS]);
  await sql.unsafe('ANALYZE');
  return { tokens, roomPost: (group) => firstId + group };
}

/** (a): the streams, the rounds, the fence, and who was told. */
async function scopedStreams(server, seeded) {
  const streams = [];
  const byGroup = Array.from({ length: GROUPS }, () => []);
  for (let member = 0; member < GROUPS * MEMBERS_PER_GROUP; member += 1) {
    for (let copy = 0; copy < STREAMS_PER_MEMBER; copy += 1) {
      const stream = { group: Math.floor(member / MEMBERS_PER_GROUP), heard: new Set(), last: 0 };
      streams.push({ stream, member });
      byGroup[stream.group].push(stream);
    }
  }
  const rssBefore = rssMb(server.pid);
  let waiting;
  const opened = [];
  const openStarted = performance.now();
  for (let start = 0; start < streams.length; start += 100) {
    opened.push(
      ...(await Promise.all(
        streams.slice(start, start + 100).map(({ stream, member }) =>
          listen(server.url, `ie_session=${seeded.tokens[member]}`, (cursor) => {
            stream.heard.add(cursor);
            const before = stream.last;
            stream.last = Math.max(stream.last, cursor);
            if (waiting && waiting.streams.has(stream) && before < waiting.target && cursor >= waiting.target && (waiting.left -= 1) === 0)
              waiting.done(performance.now());
          }),
        ),
      )),
    );
  }
  const openMs = performance.now() - openStarted;
  const rssAfter = rssMb(server.pid);
  const rounds = [];
  const admin = new Session(server.url);
  await admin.signIn('admin@insightexchange.app', 'bench-admin');
  try {
    // The streams read their members' groups as they open: a round starts once every read is done
    // (a public change every stream hears, after which each is indexed by its groups).
    const settle = async () => {
      const created = await admin.push({
        id: randomUUID(),
        type: 'create',
        post: { title: 'Fence', content: 'Everyone', category: 'Trends' },
      });
      const target = created.cursor;
      const all = new Set(streams.map(({ stream }) => stream));
      await new Promise((done) => {
        waiting = { streams: all, target, left: [...all].filter((stream) => stream.last < target).length, done };
        if (waiting.left === 0) done();
      });
      waiting = undefined;
      return target;
    };
    await settle();
    for (let round = 0; round < ROUNDS; round += 1) {
      const group = (round * 37) % GROUPS;
      const pusher = new Session(server.url);
      pusher.cookie = `ie_session=${seeded.tokens[group * MEMBERS_PER_GROUP + (round % MEMBERS_PER_GROUP)]}`;
      const postId = seeded.roomPost(group);
      const op =
        round % 2 === 0
          ? { id: randomUUID(), type: 'like', postId }
          : { id: randomUUID(), type: 'reply', postId, content: `Round ${round}.` };
      const members = new Set(byGroup[group]);
      let done;
      const heard = new Promise((resolve) => (done = resolve));
      const sent = performance.now();
      const answer = await pusher.push(op);
      if (answer.results[0].status !== 'applied') throw new Error(`round ${round} refused: ${JSON.stringify(answer.results[0])}`);
      const target = answer.cursor;
      waiting = { streams: members, target, left: [...members].filter((stream) => stream.last < target).length, done };
      if (waiting.left === 0) done(performance.now());
      rounds.push({ group, target, kind: op.type, ms: (await heard) - sent });
      waiting = undefined;
    }
    const fence = await settle();
    // Who heard each private change: its group's streams, and (must be none) any other.
    let outside = 0;
    let inside = 0;
    for (const round of rounds) {
      for (const { stream } of streams) {
        if (!stream.heard.has(round.target)) continue;
        if (stream.group === round.group) inside += 1;
        else outside += 1;
      }
    }
    const times = rounds.map((round) => round.ms);
    return {
      streams: streams.length,
      openMs,
      rssBefore,
      rssAfter,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: Math.max(...times),
      told: inside,
      expectedTold: ROUNDS * MEMBERS_PER_GROUP * STREAMS_PER_MEMBER,
      outside,
      fence,
    };
  } finally {
    for (const stream of opened) stream.close();
  }
}

/** (b): one member's first pull, page by page. */
async function firstPull(server, token) {
  const reader = new Session(server.url);
  reader.cookie = `ie_session=${token}`;
  const pages = [];
  let cursor = 0;
  let posts = 0;
  const started = performance.now();
  for (let more = true; more;) {
    const sent = performance.now();
    const { text, json } = await getText(server.url, `/api/changes?after=${cursor}&limit=${PAGE}`, reader.cookie);
    pages.push({ ms: performance.now() - sent, bytes: Buffer.byteLength(text), rows: json.posts.length });
    posts += json.posts.length;
    ({ cursor, more } = json);
  }
  const times = pages.map((page) => page.ms);
  const bytes = pages.map((page) => page.bytes);
  return {
    ms: performance.now() - started,
    pages: pages.length,
    posts,
    pageP50: percentile(times, 50),
    pageP95: percentile(times, 95),
    pageMax: Math.max(...times),
    bytesP50: percentile(bytes, 50),
    bytesMax: Math.max(...bytes),
    rowsMax: Math.max(...pages.map((page) => page.rows)),
    pageTimes: times,
  };
}

function getText(url, path, cookie) {
  return new Promise((resolve, reject) => {
    http
      .get(url + path, { headers: { cookie, 'x-insight-protocol': '7' } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`${path}: ${response.statusCode} ${text.slice(0, 200)}`));
          resolve({ text, json: JSON.parse(text) });
        });
      })
      .on('error', reject);
  });
}

/** The plan of the pull's posts for a member in none of the groups (the visibility SQL of src/shared/visibility.ts). */
async function explainPull(sql, email) {
  const rows = await sql.unsafe(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
     SELECT y.id FROM posts y
     WHERE y.seq > 0 AND y.seq <= (SELECT seq FROM change_head)
       AND (false OR ((y.status = 'approved' OR y.author_email = $1) AND NOT EXISTS (SELECT 1 FROM categories vc WHERE vc.id = y.category AND vc.see_groups IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM users vu JOIN group_members vg ON vg.user_id = vu.id
           WHERE vu.email = $1 AND vg.in_group AND vg.group_id = ANY(vc.see_groups)))))
     ORDER BY y.seq LIMIT 1001`,
    [email],
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

const results = { load: loadNow(), at: stamp() };
const temporary = mkdtempSync(join(os.tmpdir(), 'ie-bench-spaces-'));
let database;
let server;
let sql;
try {
  database = await startPostgres({ durable: true });
  server = await startServer({ DATABASE_URL: database.url, DATA_DIR: temporary, MAX_LIVE_STREAMS: '20000' });
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const seeded = await seedSpaces(sql);
  const streamsLoad = loadNow();
  results.streams = { ...(await scopedStreams(server, seeded)), load: `${streamsLoad} → ${loadNow()}`, at: stamp() };
  console.log('streams', JSON.stringify(results.streams));
  await seedPosts((text, params) => sql.unsafe(text, params), POSTS);
  await sql.unsafe('VACUUM ANALYZE');
  const some = seeded.tokens[GROUPS * MEMBERS_PER_GROUP];
  const none = seeded.tokens[GROUPS * MEMBERS_PER_GROUP + 1];
  const pullLoad = loadNow();
  // Every fifth seeded post into one of the private rooms (its change number kept: a first pull reads them all).
  await sql.unsafe(`UPDATE posts SET category = 'bench-room-' || ((id / 5) % $1::int) WHERE title LIKE 'Seeded post %' AND id % 5 = 0`, [
    GROUPS,
  ]);
  await sql.unsafe('VACUUM ANALYZE posts');
  const [{ n: privateCount }] = await sql.unsafe(`SELECT count(*)::int AS n FROM posts WHERE category LIKE 'bench-room-%'`);
  results.privatePosts = privateCount;
  // Interleaved, PULL_RUNS times (the machine is shared: load drifts): today's forum (the rooms seen by
  // everyone: the same posts, all public), then the member in 3 groups and the member in none.
  const runs = { publicPull: [], somePull: [], nonePull: [] };
  const rooms = (see) => sql.unsafe(`UPDATE categories SET see_groups = ${see} WHERE id LIKE 'bench-room-%'`);
  for (let run = 0; run < PULL_RUNS; run += 1) {
    await rooms('NULL');
    runs.publicPull.push(await firstPull(server, none));
    await rooms(`ARRAY['bench-group-' || substr(id, 12)]`);
    runs.somePull.push(await firstPull(server, some));
    runs.nonePull.push(await firstPull(server, none));
    const last = Object.entries(runs).map(([key, list]) => [key, { ...list.at(-1), pageTimes: undefined }]);
    console.log('run', run, JSON.stringify(Object.fromEntries(last)));
  }
  for (const [key, list] of Object.entries(runs)) {
    const pages = list.flatMap((one) => one.pageTimes);
    results[key] = {
      runs: list.map(({ pageTimes: _times, ...rest }) => rest),
      pages: list[0].pages,
      posts: list[0].posts,
      pageP50: percentile(pages, 50),
      pageP95: percentile(pages, 95),
      pageMax: Math.max(...pages),
      bytesMax: Math.max(...list.map((one) => one.bytesMax)),
      rowsMax: Math.max(...list.map((one) => one.rowsMax)),
    };
  }
  results.pullLoad = `${pullLoad} → ${loadNow()}`;
  results.plan = await explainPull(sql, `space${GROUPS * MEMBERS_PER_GROUP + 1}@bench.example`);
  console.log(results.plan);
} finally {
  await sql?.end();
  await server?.stop();
  database?.stop();
  rmSync(temporary, { recursive: true, force: true });
}
results.loadAfter = loadNow();
writeFileSync('bench/spaces-results.json', JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
