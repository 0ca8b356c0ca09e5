// Writes the "## Server" section of bench/results.md from the server benchmark's results: one table
// per measure, the method beside each row, the machine and its load average while it ran.
import os from 'node:os';
import { writeSection as writeResultsSection } from '../sections.mjs';

const ms = (value) => (value === undefined ? 'not run' : `${Math.round(value)} ms`);
const mb = (value) => (value === undefined ? 'not run' : `${Math.round(value)} MB`);
const rate = (value) => (value === undefined ? 'not run' : `${Math.round(value).toLocaleString('en-US')}/s`);

/** When a measure ran and the load average (1, 5, 15 min) at its start → its end; older ones ran with the full run. */
const when = (x) => (x?.at ? `${x.at} · ${x.load}` : 'full run');

/** Each target of issue 12 against the figures: met, not met (and why), or not run. */
function targets(r, n) {
  const total = n.CLIENTS * n.LIKES_EACH;
  const likeRows = [r.pgliteLikes, r.postgresLikes, r.twoLikes].filter(Boolean);
  const announce = [r.pgliteAnnounce, r.postgresAnnounce].filter(Boolean);
  const uis = [r.pgliteUi, r.postgresUi].filter(Boolean);
  const verdict = (ran, ok, why) => (!ran ? 'not run' : ok ? 'met' : `**not met**: ${why}`);
  const worst = (rows, key) => Math.max(...rows.map((x) => x[key]));
  return [
    [
      '0 lost or doubled likes in every run',
      likeRows.map((x) => `${x.count}`).join(', ') + ` of ${total}`,
      verdict(
        likeRows.length > 0,
        likeRows.every((x) => x.count === total),
        'a count differs',
      ),
    ],
    [
      `${n.LISTENERS.toLocaleString('en-US')} listeners announced within 1 s, p95`,
      announce.map((x) => ms(x.p95)).join(', '),
      verdict(announce.length > 0, announce.length > 0 && worst(announce, 'p95') <= 1000, 'over 1 s'),
    ],
    [
      'at least 1,000 like operations per second on PostgreSQL',
      rate(r.postgresLikes?.opsPerSecond),
      verdict(
        r.postgresLikes,
        (r.postgresLikes?.opsPerSecond ?? 0) >= 1000,
        'the 200 benchmark clients and the server share the same 2 cores (the server profile shows it idle about half the run), ' +
          'and the figure moves with the load other jobs put on them (A/B runs on this machine: 524–964/s). The database is not the limit: ' +
          'a group commit of 1,000 likes takes about 120 ms. Meeting it needs the load generator on other cores or another machine.',
      ),
    ],
    [
      'first 20 posts of a 100,000-post first sync painted within 2 s',
      uis.map((x) => ms(x.painted)).join(', '),
      verdict(uis.length > 0, uis.length > 0 && worst(uis, 'painted') <= 2000, 'over 2 s'),
    ],
    [
      'the whole 100,000-post first sync within 20 s',
      uis.map((x) => ms(x.whole)).join(', '),
      verdict(
        uis.length > 0,
        uis.length > 0 && worst(uis, 'whole') <= 20_000,
        "Chromium's IndexedDB writes of 100,000 rows are the cost (put leads the device's CPU profile); plain IndexedDB writing one row per post " +
          'with the same indexes takes 9.1–9.5 s on a profile on disk (docs/architecture.md), so the server and the pull are not the limit. Meeting it needs ' +
          'fewer IndexedDB records (posts stored in pages of several hundred per record, a schema change).',
      ),
    ],
  ]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');
}

/** Replaces the "## Server" section of bench/results.md with `results`; the other sections stay. */
export async function writeSection(r, n) {
  const likes = (name, x) =>
    `| ${name} | ${x?.count ?? 'not run'} of ${n.CLIENTS * n.LIKES_EACH} | ${rate(x?.opsPerSecond)} | ${ms(x?.p50)} | ${ms(x?.p99)} | ${when(x)} |`;
  const heard = (name, x) => `| ${name} | ${mb(x?.rssBefore)} → ${mb(x?.rssAfter)} | ${ms(x?.p50)} | ${ms(x?.p95)} | ${when(x)} |`;
  const pull = (name, x) => `| ${name} | ${ms(x?.ms)} (${x?.pages ?? '?'} pages) | ${mb(x?.peakRss)} | ${when(x)} |`;
  const ui = (name, x) =>
    `| ${name} | ${ms(x?.painted)} | ${ms(x?.whole)} | ${mb(x?.heapPeak)} | ${mb(x?.chromiumRss)} | ${mb(x?.serverPeak)} | ${when(x)} |`;
  const busy = (name, x) =>
    x?.busy
      ? `| ${name} | ${ms(x.busy.all.p98)} | ${ms(x.busy.like.p98)} / ${ms(x.busy.typing.p98)} | ${ms(x.busy.all.max)} | ${x.busy.all.count} | ${ms(x.busyWhole)} |`
      : `| ${name} | not run | | | | |`;
  const race = (x) => {
    if (!Array.isArray(x?.raw)) return '| not run | | | | | | | |';
    const each = (runs, show) => runs.map(show).join(' · ');
    const ratio = (runs) => each(runs, (y, round) => `${(y.opsPerSecond / x.raw[round].opsPerSecond).toFixed(2)}x`);
    const others = (runs) =>
      runs
        .flatMap((y) => Object.entries(y.refused ?? {}))
        .map(([code, count]) => `${count} ${code}`)
        .join(', ') || 'none';
    const row = (name, runs, strong = false) => {
      const bold = (text) => (strong ? `**${text}**` : text);
      return `| ${name} | ${bold(each(runs, (y) => rate(y.opsPerSecond)))} | ${bold(ratio(runs))} | ${each(runs, (y) => ms(y.p50))} | ${each(runs, (y) => ms(y.p99))} | ${each(runs, (y) => y.count)} (exact) | ${others(runs)} |`;
    };
    return [
      row(`raw autocommit UPDATE, ${x.clients} connections`, x.raw),
      row('likes, limits off (the admin)', x.off),
      row(`likes, default limits in force (${x.members} members)`, x.limited, true),
    ].join('\n');
  };
  const section = `
## Server

Produced by \`npm run bench:server\` (bench/server.mjs, bench/server/*.mjs) on ${os.cpus().length} cores, Node ${process.version},
last written ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Each row says when it ran and the load average (1, 5, 15 min) at its
start → end; "full run" rows come from the last full run, load ${r.load_pglite ? `PGlite part ${r.load_pglite}, PostgreSQL part ${r.load_postgres}` : `${r.load} at the start, ${r.loadAfter} at the end`}
(the machine is shared: other jobs ran meanwhile). Each built server (\`dist-server/server.js\`) is its own
process on 127.0.0.1 with TRUST_PROXY=1 (each benchmark client signs in from its own X-Forwarded-For
address, as behind a load balancer); the clients are Node's http client (kept-alive sockets) and raw
sockets in the benchmark process, on the same 2 cores (rows measured before 2026-11-23 05:46 used
fetch, which cost the load generator about one core at 500 pushes/s). PGlite keeps its files in a temporary DATA_DIR; PostgreSQL 15 is a
throwaway server with its default durable settings (fsync on, synchronous_commit on).

**Issue 12's targets** against the rows below:

| target | figures | met? |
|---|---|---|
${targets(r, n)}

**Likes**: ${n.CLIENTS} signed-in clients each push ${n.LIKES_EACH} single-like operations one after another, all
clients at once, on one post. ops/s from the first push sent to the last answer received; push p50/p99
from sending one request to parsing its answer; the count is the post's likes pulled afterwards and must
be exactly ${(n.CLIENTS * n.LIKES_EACH).toLocaleString('en-US')} (0 lost, 0 doubled). "Two instances": the same clients split evenly over two
servers on one PostgreSQL. \`BENCH_ENGINE=postgres BENCH_ONLY=likes\` runs only this row; \`BENCH_SERVER_JS\`
points it at another server build (an A/B of two commits).

| engine | final count | like ops/s | push p50 | push p99 | run (UTC) · load before → after |
|---|---|---|---|---|---|
${likes('PGlite', r.pgliteLikes)}
${likes('PostgreSQL, one instance', r.postgresLikes)}
${likes('PostgreSQL, two instances', r.twoLikes)}

**Likes against raw PostgreSQL** (issue 64, item 3): on the one instance's throwaway PostgreSQL (fsync on),
${n.RACE.clients} clients at once for ${n.RACE.seconds} s each, ${n.RACE.rounds} rounds of three, one after another: raw single-row autocommit
\`UPDATE posts SET likes = likes + 1\` from ${n.RACE.clients} connections (the floor); likes through \`POST /api/ops\` as the admin, whom limits
never count (limits off); the same likes with the default member limits in force (the admin sets them back for this run),
each push from the next of the client's ${n.RACE.membersEach} members (seeded straight into the database) who may push now, each member
kept within their limits (20 pushes at once then 2 a second, 50 likes a first day). Each answer other than applied is counted;
the post must count exactly the likes applied. One figure per round (· between them); × raw against the same round's raw row.
Goal: the like path with the limits at or above raw autocommit, in the same run. \`BENCH_ENGINE=postgres BENCH_ONLY=race\`
runs only this table. Run ${when(r.race)}.

| path | likes/s | × raw | push p50 | push p99 | likes applied (exact) | other answers |
|---|---|---|---|---|---|---|
${race(r.race)}

**Live stream**: ${n.LISTENERS.toLocaleString('en-US')} concurrent \`/api/events\` streams held open on one instance (ten per
member session, the server's cap); memory is the server process's resident size (VmRSS) before opening them → with all open.
Then ${n.ROUNDS} times: an admin likes a post; the time runs from sending the push until the last of the
${n.LISTENERS.toLocaleString('en-US')} streams has announced a cursor at or past that like's change number; p50/p95 over the ${n.ROUNDS}.
"Across instances": one listener on instance B, the like pushed through instance A (NOTIFY through PostgreSQL).

| engine | server memory | like → all listeners p50 | p95 | run (UTC) · load before → after |
|---|---|---|---|---|
${heard(`PGlite, ${n.LISTENERS} listeners`, r.pgliteAnnounce)}
${heard(`PostgreSQL, ${n.LISTENERS} listeners`, r.postgresAnnounce)}
${heard('PostgreSQL, across instances, 1 listener', r.crossAnnounce)}

**First sync, server side**: ${n.PULL_POSTS.toLocaleString('en-US')} approved posts are seeded straight into the database (not measured),
then a member who just signed in pulls from cursor 0 in pages of 1,000 until \`more\` is false; from the
first request to the last page parsed, and the server's peak resident memory sampled every 50 ms.

| engine | pull of ${n.PULL_POSTS.toLocaleString('en-US')} posts | server peak memory | run (UTC) · load before → after |
|---|---|---|---|
${pull('PGlite', r.pglitePull)}
${pull('PostgreSQL', r.postgresPull)}

**First sync through the real UI** (bench/server/ui-sync.mjs), on the same seeded server (after the
pull above when both run): a fresh headless Chromium with its own profile on disk, as a member's
device has (1280×900, no CPU throttling, service workers blocked; an off-the-record context keeps
IndexedDB in memory, where a first sync of 100,000 posts took 95 s: bench/devices.mjs), fills the
sign-in form of a new member; the clock starts when Sign In is pressed. The app lands on the home
page and the member taps Forum at once. "20 painted": the frame after /forum first holds 20 post
cards. "Whole": the first full sync recorded in IndexedDB (polled every 200 ms, reading that one
meta row), then every post found stored (counted once). JS heap: the page's JSHeapUsedSize (CDP Performance.getMetrics), peak while
syncing; Chromium memory: resident size of every Chromium process summed, at the end; server: its
peak resident size. Targets: 20 painted ≤ 2 s, whole ≤ 20 s. One run per engine.

| engine | 20 posts painted | whole sync | JS heap peak | Chromium memory | server peak | run (UTC) · load before → after |
|---|---|---|---|---|---|---|
${ui('PGlite', r.pgliteUi)}
${ui('PostgreSQL', r.postgresUi)}

**Responsiveness while a first sync runs**: then a second new device, the same way, except that from
the first post on /forum until the sync is done its member likes the first post and types words into the
search box, 50 ms between keys (bench/interactions.mjs). Each interaction's Event Timing duration (input
delay, handlers, the next frame presented: what INP counts); under 16 ms there is no entry and it counts as
16 ms. Target (issue 24): INP p98 of likes and typing ≤ 100 ms.

| engine | INP p98 of likes and typing | … of the likes / of the keys | worst | interactions | whole sync meanwhile |
|---|---|---|---|---|---|
${busy('PGlite', r.pgliteUi)}
${busy('PostgreSQL', r.postgresUi)}
`;
  await writeResultsSection('bench/results.md', 'Server', section.replace(/^\s*## Server\n/, ''));
}
