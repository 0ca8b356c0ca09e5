// The server benchmark's measures, each through the HTTP API of running servers (see harness.mjs):
// likes from many clients, announcements to many live-stream listeners, a first pull of many posts,
// and likes against raw PostgreSQL autocommit with the member limits in force, off, and the floor.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { listen, openLimits, percentile, rssMb, Session } from './harness.mjs';

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

/**
 * Single-row autocommit UPDATEs of `postId`'s likes from `connections` connections to the database at
 * `url` (each commit flushed to the WAL), until `count` are done or `seconds` have passed; per second.
 * Throws unless the post counts exactly as many more likes.
 */
export async function rawAutocommit(url, postId, connections, { count = Infinity, seconds = Infinity }) {
  const sql = postgres(url, { max: connections, onnotice: () => {} });
  try {
    await Promise.all(Array.from({ length: connections }, () => sql`SELECT 1`));
    const [{ before }] = await sql`SELECT likes AS before FROM posts WHERE id = ${postId}`;
    let left = count;
    let done = 0;
    const latencies = [];
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left > 0 && performance.now() < until) {
          left -= 1;
          const sent = performance.now();
          await sql`UPDATE posts SET likes = likes + 1 WHERE id = ${postId}`;
          latencies.push(performance.now() - sent);
          done += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const [{ after }] = await sql`SELECT likes AS after FROM posts WHERE id = ${postId}`;
    if (Number(after) - Number(before) !== done) throw new Error(`expected ${done} updates, counted ${Number(after) - Number(before)}`);
    return { count: done, opsPerSecond: done / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await sql.end();
  }
}

/** The member limits a benchmark client keeps to, a little inside the defaults (lib/limits.ts: 20 pushes at once, then 2 a second; 50 likes a new member's first day). */
const PUSH_BURST = 19;
const PUSHES_PER_MS = 1.8 / 1000;
const LIKES_PER_MEMBER = 45;

/**
 * `count` members with a signed-in session each, inserted straight into the database at `sql` (as
 * seedPosts does posts: a sign-up each, with its password's hash, would take minutes of CPU): a
 * Session for each, its cookie the session's token (stored, as the server stores it, as its SHA-256).
 */
async function seedMembers(sql, url, count, prefix) {
  const tokens = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
  const users = await sql`
    INSERT INTO users (email, name, role, password_hash, member_id, name_key)
    SELECT p || n || '@bench.example', 'Bench ' || p || ' ' || n, 'user', '', substr(md5(p || n), 1, 16), 'bench ' || p || ' ' || n
    FROM generate_series(1, ${count}::int) AS n, (SELECT ${prefix}::text AS p) AS named ORDER BY n RETURNING id`;
  await sql`
    INSERT INTO sessions (token_hash, user_id, expires_at, public_id, user_agent, last_seen_at)
    SELECT h, u, now() + interval '30 days', substr(md5(h), 1, 16), 'bench', ${Date.now()}
    FROM unnest(${tokens.map((token) => createHash('sha256').update(token).digest('hex'))}::text[], ${users.map((user) => user.id)}::bigint[]) AS t(h, u)`;
  return tokens.map((token) => Object.assign(new Session(url), { cookie: `ie_session=${token}` }));
}

/**
 * `clients` clients, each pushing one like at a time for `seconds` on `postId`, each push from the next
 * of its own members who may push now (`paced`: by the limits above; else any, at once). Counts the
 * likes applied and every other answer (a like over a limit, a push answered 429); throws unless the
 * post, read from the database at `sql`, counts exactly the likes applied.
 */
async function likesFor(sql, membersOf, postId, seconds, paced) {
  const [{ before }] = await sql`SELECT likes AS before FROM posts WHERE id = ${postId}`;
  const latencies = [];
  const refused = {};
  let applied = 0;
  let idle = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    membersOf.map(async (sessions) => {
      // What each member has pushed is kept on its session, from one round to the next.
      const members = sessions.map((session) => (session.pushed ??= { session, tokens: PUSH_BURST, at: started, likes: 0 }));
      const mayPush = (member, now) => {
        member.tokens = Math.min(PUSH_BURST, member.tokens + (now - member.at) * PUSHES_PER_MS);
        member.at = now;
        return !paced || (member.tokens >= 1 && member.likes < LIKES_PER_MEMBER);
      };
      let turn = 0;
      while (performance.now() < until) {
        const now = performance.now();
        const index = Array.from({ length: members.length }, (_, step) => (turn + step) % members.length).find((at) =>
          mayPush(members[at], now),
        );
        if (index === undefined) {
          // Every member of this client has pushed as often as the limits let them: wait for a refill.
          idle += 1;
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        turn = index + 1;
        const member = members[index];
        member.tokens -= 1;
        member.likes += 1;
        const sent = performance.now();
        const answer = await member.session.push({ id: randomUUID(), type: 'like', postId }).catch((error) => {
          if (!/: 429 /.test(error.message)) throw error;
          return { results: [{ status: '429' }] };
        });
        latencies.push(performance.now() - sent);
        const [result] = answer.results;
        if (result.status === 'applied') applied += 1;
        else refused[result.code ?? result.status] = (refused[result.code ?? result.status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const [{ after }] = await sql`SELECT likes AS after FROM posts WHERE id = ${postId}`;
  const counted = Number(after) - Number(before);
  if (counted !== applied) throw new Error(`${applied} likes applied, the post counts ${counted} more`);
  return { count: applied, opsPerSecond: applied / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), refused, idle };
}

/**
 * Issue 64, item 3: likes through POST /api/ops of `server` against raw PostgreSQL autocommit on its
 * database (`databaseUrl`), `clients` at once for `seconds` each, `rounds` times in this order: raw
 * single-row autocommit UPDATEs from `clients` connections (the floor); likes with no limits (the
 * admin's, whom limits never count); likes with the default member limits in force (the admin sets them
 * back for the run: each push from one of `clients` × `membersEach` new members, each kept within their
 * limits). The server's limits are opened wide again after each. One figure per round and path.
 */
export async function likesAgainstRaw(server, databaseUrl, { clients, seconds, membersEach, rounds }) {
  const { admin, postId } = await approvedPost(server.url);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const members = await seedMembers(sql, server.url, clients * membersEach, `racer${Date.now()}x`);
    const membersOf = Array.from({ length: clients }, (_, client) => members.filter((_, index) => index % clients === client));
    const admins = Array.from({ length: clients }, () => [admin]);
    const { defaults } = await admin.send('GET', '/api/admin/limits');
    const runs = { raw: [], off: [], limited: [] };
    // Each run starts on a vacuumed post: the dead versions of its row that a run leaves (thousands)
    // otherwise slow the next one (a first layout, raw then limits on then off, put the run after raw at 0.89–1.10x).
    const vacuumed = async (run) => {
      await sql`VACUUM posts`;
      return run();
    };
    for (let round = 0; round < rounds; round += 1) {
      runs.raw.push(await vacuumed(() => rawAutocommit(databaseUrl, postId, clients, { seconds })));
      runs.off.push(await vacuumed(() => likesFor(sql, admins, postId, seconds, false)));
      // Each session's first request in a minute writes its "last seen": done here, not timed.
      for (let start = 0; start < members.length; start += clients)
        await Promise.all(members.slice(start, start + clients).map((member) => member.send('GET', '/api/session')));
      await admin.send('PUT', '/api/admin/limits', { limits: defaults });
      try {
        runs.limited.push(await vacuumed(() => likesFor(sql, membersOf, postId, seconds, true)));
      } finally {
        await openLimits(server.url);
      }
    }
    return { ...runs, clients, seconds, members: members.length };
  } finally {
    await sql.end();
  }
}
