// The server benchmark's measures, each through the HTTP API of running servers (see harness.mjs):
// likes from many clients, announcements to many live-stream listeners, a first pull of many posts.
import { randomUUID } from 'node:crypto';
import { listen, percentile, rssMb, Session } from './harness.mjs';

/** Signs in `count` sessions spread over `urls`, 10 at a time, each from its own address. */
async function signInMany(urls, count, prefix) {
  const sessions = [];
  for (let start = 0; start < count; start += 10) {
    const group = Array.from({ length: Math.min(10, count - start) }, (_, offset) => {
      const index = start + offset;
      const session = new Session(urls[index % urls.length]);
      return session.signIn(`${prefix}${index}@bench.example`, undefined, `127.1.${index >> 8}.${index & 255}`).then(() => session);
    });
    sessions.push(...(await Promise.all(group)));
  }
  return sessions;
}

/** An approved post to like, created and approved by the admin through `url`. */
export async function approvedPost(url) {
  const admin = new Session(url);
  await admin.signIn('admin@insightexchange.app', 'bench-admin');
  const created = await admin.push({ id: randomUUID(), type: 'create', post: { title: 'Bench', content: 'Likes', category: 'Trends' } });
  const postId = created.results[0].postId;
  await admin.push({ id: randomUUID(), type: 'approve', postId });
  return { admin, postId };
}

/**
 * `clients` sessions spread over `urls` push `each` single likes one after another, all at once, on
 * one post; from the first push sent to the last answer. Throws unless the post counts exactly.
 */
export async function likeStorm(urls, clients, each, prefix) {
  const { admin, postId } = await approvedPost(urls[0]);
  const sessions = await signInMany(urls, clients, prefix);
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let like = 0; like < each; like += 1) {
        const sent = performance.now();
        const answer = await session.push({ id: randomUUID(), type: 'like', postId });
        latencies.push(performance.now() - sent);
        if (answer.results[0].status !== 'applied') throw new Error(`like refused: ${JSON.stringify(answer.results[0])}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const pulled = await admin.send('GET', '/api/changes?after=0&limit=1000');
  const likes = pulled.posts.find((post) => post.id === postId)?.likes;
  if (likes !== clients * each) throw new Error(`expected ${clients * each} likes, found ${likes}`);
  return { count: likes, opsPerSecond: (clients * each) / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** The live streams one session may hold (the server's cap, routes/api/events.ts). */
const STREAMS_PER_SESSION = 10;

/**
 * Opens `count` live streams on `listenServer` (ten per member session, the server's cap), then
 * `rounds` times likes a post through `likeUrl` and times from the push sent until every stream
 * announced its change.
 */
export async function announce(listenServer, likeUrl, count, rounds) {
  const { admin, postId } = await approvedPost(likeUrl);
  const members = await signInMany([listenServer.url], Math.ceil(count / STREAMS_PER_SESSION), 'listener');
  const rssBefore = rssMb(listenServer.pid);
  const seen = new Array(count).fill(0);
  let waiting;
  const onCursor = (index, cursor) => {
    if (cursor <= seen[index]) return;
    const before = seen[index];
    seen[index] = cursor;
    if (waiting && before < waiting.target && cursor >= waiting.target && (waiting.left -= 1) === 0) waiting.done(performance.now());
  };
  const streams = [];
  for (let start = 0; start < count; start += 50) {
    const group = Array.from({ length: Math.min(50, count - start) }, (_, offset) =>
      listen(listenServer.url, members[Math.floor((start + offset) / STREAMS_PER_SESSION)].cookie, (cursor) =>
        onCursor(start + offset, cursor),
      ),
    );
    streams.push(...(await Promise.all(group)));
  }
  const rssAfter = rssMb(listenServer.pid);
  const times = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      const sent = performance.now();
      let done;
      const all = new Promise((resolve) => (done = resolve));
      const answer = await admin.push({ id: randomUUID(), type: 'like', postId });
      const target = answer.results[0].post.seq;
      waiting = { target, left: seen.filter((cursor) => cursor < target).length, done };
      if (waiting.left === 0) done(performance.now());
      times.push((await all) - sent);
      waiting = undefined;
    }
  } finally {
    for (const stream of streams) stream.close();
  }
  return { rssBefore, rssAfter, p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** A member pulls from cursor 0 in pages of 1,000 until `more` is false; counts `expected` posts. */
export async function firstPull(server, expected) {
  const [reader] = await signInMany([server.url], 1, 'reader');
  let peak = rssMb(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
  const started = performance.now();
  let cursor = 0;
  let count = 0;
  let pages = 0;
  try {
    for (let more = true; more; pages += 1) {
      const page = await reader.send('GET', `/api/changes?after=${cursor}&limit=1000`);
      // A member's pull names authors, not their addresses: the seeded posts are told by their title.
      count += page.posts.filter((post) => post.title.startsWith('Seeded post ')).length;
      ({ cursor, more } = page);
    }
  } finally {
    clearInterval(sampler);
  }
  if (count !== expected) throw new Error(`the pull returned ${count} of ${expected} posts`);
  return { ms: performance.now() - started, pages, peakRss: peak };
}

/** Inserts `count` approved posts straight into the database with `query` (seeding, not measured). */
export async function seedPosts(query, count) {
  const [head] = await query('SELECT seq, last_post_id FROM change_head');
  const seq = Number(head.seq);
  const id = Math.max(Number(head.last_post_id), Date.now()) + 1;
  await query(
    `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
     SELECT $1::bigint + n, 'Seeded post ' || n, repeat('A realistic paragraph of content. ', 12), 'Trends', 'Seeded', 'seeded@bench.example',
       'user', 0, 0, 0, 'Just now', false, '["bench"]'::jsonb, 'approved', $2::bigint + n
     FROM generate_series(1, $3::int) AS n`,
    [id, seq, count],
  );
  await query('UPDATE change_head SET seq = $1, last_post_id = $2', [seq + count, id + count]);
  // Planner statistics, as PostgreSQL's autovacuum (or PGlite's start-up) would gather them.
  await query('ANALYZE posts');
}
