#!/usr/bin/env node
// `npm run bench:unread`: "N new" at scale (issue 62, item 5). A device holding BENCH_UNREAD_POSTS
// (10,000) posts of 10 replies each (100,000 replies) and a read position in every post (10,000
// reads rows), in Debian's Chromium on a profile on disk, running the device's own code
// (bench/unread/entry.ts, served by Vite's dev server on 127.0.0.1):
//
// - the counts useUnreadCounts reads (db/follows/reads.ts, unreadCounts), RUNS times: p50/p95, with
//   every post holding new replies (the worst case), then with SOME (500) of them;
// - a pull page of 500 new replies over 500 posts stored (replies/pulled.ts) with the unread upkeep
//   (storage/unread-upkeep.ts), and in a transaction without `reads` (no upkeep), PAGES times each;
// - a reply stored in one tab to the count changed in another tab's live query, RUNS times.
//
// Prints a Markdown table; bench/results.md keeps the figures ("Unread at scale").
import { createServer } from 'vite';
import { DEXIE_MODERN_ALIAS } from '../scripts/dexie-modern.mjs';
import { newDiskDevice } from './devices.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4188);
const BASE = `http://127.0.0.1:${PORT}`;
const POSTS = Number(process.env.BENCH_UNREAD_POSTS ?? 10_000);
const PER_POST = 10;
const RUNS = 20;
const PAGES = Number(process.env.BENCH_UNREAD_PAGES ?? 10);
const PAGE = 500;
/** Posts with new replies in the usual case (the worst: every post). */
const SOME = 500;

const log = (...parts) => console.log(`[bench:unread ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const figures = (values) => `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.95).toFixed(1)} ms`;

const server = await createServer({
  configFile: false,
  root: process.cwd(),
  logLevel: 'error',
  resolve: { alias: [DEXIE_MODERN_ALIAS] },
  server: { host: '127.0.0.1', port: PORT, strictPort: true, hmr: false },
});
await server.listen();
const { context, page } = await newDiskDevice(BASE);
try {
  await page.goto(`${BASE}/bench/unread/index.html`);
  await page.waitForFunction(() => 'unreadBench' in window, null, { timeout: 120_000 });
  const seeded = await page.evaluate(([posts, perPost]) => window.unreadBench.seed(posts, perPost), [POSTS, PER_POST]);
  log(`seeded ${POSTS} posts, ${POSTS * PER_POST} replies, ${POSTS} reads rows in ${(seeded / 1000).toFixed(1)} s`);

  // The cards on screen: the forum's first page (20) and a list grown to 10 pages (200).
  const screen = [];
  const grown = [];
  for (let i = 0; i < RUNS; i += 1) {
    screen.push(await page.evaluate(([shown, posts]) => window.unreadBench.screenOnce(shown, posts), [20, POSTS]));
    grown.push(await page.evaluate(([shown, posts]) => window.unreadBench.screenOnce(shown, posts), [200, POSTS]));
  }
  const counts = [];
  let withNew = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const run = await page.evaluate(() => window.unreadBench.countsOnce());
    counts.push(run.ms);
    withNew = run.posts;
  }
  // The usual case: most posts read to their end, SOME with new replies.
  await page.evaluate(([some, posts]) => window.unreadBench.readAllBut(some, posts), [SOME, POSTS]);
  const someCounts = [];
  for (let i = 0; i < RUNS; i += 1) someCounts.push((await page.evaluate(() => window.unreadBench.countsOnce())).ms);
  log('counts read');
  const upkept = [];
  const plain = [];
  for (let i = 0; i < PAGES; i += 1) {
    upkept.push(await page.evaluate(([size, posts]) => window.unreadBench.pullPage(size, posts, true), [PAGE, POSTS]));
    plain.push(await page.evaluate(([size, posts]) => window.unreadBench.pullPage(size, posts, false), [PAGE, POSTS]));
  }
  log('pull pages stored', upkept.map(Math.round).join(' '), '|', plain.map(Math.round).join(' '));
  const other = await context.newPage();
  await other.goto(`${BASE}/bench/unread/index.html`);
  await other.waitForFunction(() => 'unreadBench' in window);
  const live = [];
  for (let i = 0; i < RUNS; i += 1) {
    const postId = 1 + ((i * 37) % SOME);
    await other.evaluate((id) => window.unreadBench.watch(id), postId);
    const stored = await page.evaluate((id) => window.unreadBench.storeReply(id), postId);
    const seen = await other.evaluate(() => window.unreadBench.changedAt());
    live.push(seen - stored);
  }
  console.log(
    `\n| Unread at scale (${POSTS.toLocaleString('en-US')} posts, ${(POSTS * PER_POST).toLocaleString('en-US')} replies, ${POSTS.toLocaleString('en-US')} reads rows) | p50 / p95 |`,
  );
  console.log('| --- | --- |');
  console.log(`| useUnreadCounts for the 20 cards of the forum's first page, ${RUNS} runs | ${figures(screen)} |`);
  console.log(`| the same for 200 cards (a list grown to 10 pages), ${RUNS} runs | ${figures(grown)} |`);
  console.log(
    `| every count (\`is:unread\`; ${withNew.toLocaleString('en-US')} posts with new replies), ${RUNS} runs | ${figures(counts)} |`,
  );
  console.log(`| the same with ${SOME} posts with new replies (the rest read to their end), ${RUNS} runs | ${figures(someCounts)} |`);
  console.log(`| a pull page of ${PAGE} replies over ${PAGE} posts, with the unread upkeep, ${PAGES} pages | ${figures(upkept)} |`);
  console.log(`| the same without it (no \`reads\` in the transaction), ${PAGES} pages | ${figures(plain)} |`);
  console.log(`| a reply stored in one tab to the count changed in another, ${RUNS} runs | ${figures(live)} |`);
} finally {
  await context.close();
  await server.close();
}
