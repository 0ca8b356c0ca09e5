#!/usr/bin/env node
// `npm run bench:sync` (also run by `npm run bench`): the sync figures of a real server and
// Chromium devices on this machine. Needs `npm run build` (dist/ and dist-server/).
//   1. A like on device A painted on device B through the server: from the click handler's start
//      on A to the animation frame after B's card shows the new count (p50 and p95 of 40 likes).
//   2. A new device's first sync of 10,000 posts: from pressing Sign In to the moment the device
//      has stored every post and recorded its first full sync (median of 3 fresh devices).
// Writes the rows to bench/sync-results.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFormatted } from './sections.mjs';
import { startBenchServer } from './server-process.mjs';
import os from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { fillSignIn, newDevice, waitForFirstSync } from './devices.mjs';
import { BENCH_PASSWORD, Session } from './server/harness.mjs';

const PORT = Number(process.env.BENCH_SYNC_PORT ?? 4431);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = 'admin@insightexchange.app';
const ADMIN_PASSWORD = 'bench-admin';
const LIKES = Number(process.env.BENCH_SYNC_LIKES ?? 40);
const POSTS = Number(process.env.BENCH_SYNC_POSTS ?? 10_000);
const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

const log = (...parts) => console.log(`[bench:sync ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const sorted = (values) => [...values].sort((a, b) => a - b);
const percentile = (values, p) => sorted(values)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/** An API session as the admin, through plain fetch with the session cookie. */
async function adminApi() {
  const signedIn = await fetch(`${BASE}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ mode: 'signin', email: ADMIN, password: ADMIN_PASSWORD }),
  });
  if (!signedIn.ok) throw new Error(`admin sign-in failed: ${signedIn.status}`);
  const cookie = signedIn.headers.get('set-cookie').split(';')[0];
  return async (ops) => {
    const response = await fetch(`${BASE}/api/ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE, cookie },
      body: JSON.stringify({ ops }),
    });
    if (!response.ok) throw new Error(`push failed: ${response.status} ${await response.text()}`);
    return (await response.json()).results;
  };
}

async function seedPosts(count) {
  const push = await adminApi();
  const categories = ['Quantitative', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices', 'Case Studies'];
  for (let start = 0; start < count; start += 100) {
    const creates = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      id: randomUUID(),
      type: 'create',
      post: {
        title: `Benchmark post ${start + i + 1}`,
        content: `Findings from study ${start + i + 1}: sample sizes, weighting and what we would do differently. `.repeat(3),
        category: categories[(start + i) % 6],
      },
    }));
    const results = await push(creates);
    const refused = results.find((result) => result.status === 'refused');
    if (refused) throw new Error(`the server refused a benchmark post: ${refused.reason}`);
    const reviews = await push(results.map((result) => ({ id: randomUUID(), type: 'approve', postId: result.postId })));
    if (reviews.some((result) => result.status !== 'applied')) throw new Error('the server refused to approve a benchmark post');
  }
}

async function device(browser, email) {
  const { context, page } = await newDevice(browser, BASE);
  await new Session(BASE).signIn(email); // Sign In never makes an account
  await (await fillSignIn(page, email, BENCH_PASSWORD)).click();
  await page.waitForURL(`${BASE}/`);
  return { context, page };
}

async function likeLatency(browser) {
  const a = await device(browser, 'bench-a@example.com');
  const b = await device(browser, 'bench-b@example.com');
  for (const { page } of [a, b]) {
    await page.goto('/forum');
    await page.getByRole('status', { name: 'Sync status: Synced' }).waitFor({ timeout: 60_000 });
  }
  const button = (page) =>
    page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: SAMPLE }) })
      .getByRole('button', { name: /^Like/ });
  const times = [];
  for (let i = 0; i < LIKES + 3; i += 1) {
    const before = Number((await button(b.page).innerText()).replace(/\D/g, ''));
    // B records the frame after its card shows a higher count.
    const painted = b.page.evaluate(
      ({ title, before: count }) =>
        new Promise((done) => {
          const card = [...document.querySelectorAll('article')].find((article) => article.querySelector('h2,h3')?.textContent === title);
          const observer = new MutationObserver(() => {
            const shown = Number(card.querySelector('.app-like').textContent.replace(/\D/g, ''));
            if (shown > count) {
              observer.disconnect();
              requestAnimationFrame(() => done(Date.now()));
            }
          });
          observer.observe(card, { subtree: true, characterData: true, childList: true });
        }),
      { title: SAMPLE, before },
    );
    const clickedAt = await a.page.evaluate((title) => {
      const card = [...document.querySelectorAll('article')].find((article) => article.querySelector('h2,h3')?.textContent === title);
      const at = Date.now();
      card.querySelector('.app-like').click();
      return at;
    }, SAMPLE);
    const paintedAt = await painted;
    if (i >= 3) times.push(paintedAt - clickedAt); // the first three warm the path
  }
  await a.context.close();
  await b.context.close();
  return times;
}

async function firstSync(browser) {
  const runs = [];
  for (let run = 0; run < 3; run += 1) {
    const { context, page } = await newDevice(browser, BASE);
    await new Session(BASE).signIn(`first-sync-${run}@example.com`);
    const signIn = await fillSignIn(page, `first-sync-${run}@example.com`, BENCH_PASSWORD);
    const started = Date.now();
    await signIn.click();
    await waitForFirstSync(page, POSTS + 3);
    runs.push(Date.now() - started);
    log(`first sync ${run + 1}: ${runs.at(-1)} ms`);
    await context.close();
  }
  return runs;
}

const found = ensureChromium();
if (!found.ok) {
  console.error(found.message);
  process.exit(1);
}
const dataDir = mkdtempSync(join(os.tmpdir(), 'ie-bench-sync-'));
const server = await startBenchServer({
  port: PORT,
  dataDir,
  adminPassword: ADMIN_PASSWORD,
  script: process.env.SYNC_E2E_SERVER ?? 'dist-server/server.js',
});
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
try {
  log(`${LIKES} likes from device A to device B…`);
  const likes = await likeLatency(browser);
  log(`seeding ${POSTS.toLocaleString('en-US')} approved posts through the API…`);
  await seedPosts(POSTS);
  log('first sync of new devices…');
  const syncs = await firstSync(browser);
  const median = (values) => percentile(values, 50);
  const rows = [
    '| measure | target | result |',
    '|---|---|---|',
    `| like on device A painted on device B through the server (${likes.length} likes) | p95 ≤ 250 ms | p50 ${median(likes)} ms, p95 ${percentile(likes, 95)} ms, max ${Math.max(...likes)} ms |`,
    `| new device's first sync of ${POSTS.toLocaleString('en-US')} posts (Sign In → every post stored, 3 devices) | — | median ${(median(syncs) / 1000).toFixed(1)} s (${syncs.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s) |`,
  ];
  const about = `Date: ${new Date().toISOString().slice(0, 10)} · Chromium ${browser.version()} (headless) · ${os.cpus().length} cores · Node ${process.version} · server with embedded PGlite on 127.0.0.1`;
  const text = `# Sync benchmark\n\nProduced by \`npm run bench:sync\`.\n\n${about}\n\n${rows.join('\n')}\n`;
  await writeFormatted('bench/sync-results.md', text);
  console.log(`\n${text}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
