#!/usr/bin/env node
// `npm run bench:moderation` (also run by `npm run bench`): how fast moderation reaches other
// devices through a real server, in headless Chromium on this machine. Needs `npm run build`.
// Three devices: the admin's tablet A (on /admin), the admin's second tablet B (on /forum) and the
// author's phone (on /forum). For each of REVIEWS posts the author wrote, A clicks Approve; measured
// from the click handler's start on A to:
//   1. the animation frame after B's Admin link says one post fewer waits (its accessible description);
//   2. the animation frame after the phone's Notifications button counts one more unread notification.
// Writes the rows to bench/moderation-results.md.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { writeFormatted } from './sections.mjs';
import { makeMember, startBenchServer } from './server-process.mjs';
import { fillSignIn, newDevice } from './devices.mjs';

const PORT = Number(process.env.BENCH_MODERATION_PORT ?? 4433);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = 'admin@insightexchange.app';
const ADMIN_PASSWORD = 'bench-admin';
const AUTHOR = 'bench-author@example.com';
const REVIEWS = Number(process.env.BENCH_MODERATION_REVIEWS ?? 40);
const WARM_UP = 3;

const log = (...parts) => console.log(`[bench:moderation ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const sorted = (values) => [...values].sort((a, b) => a - b);
const percentile = (values, p) => sorted(values)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/** Pushes operations as `email` through plain fetch (the account made on first use: Create Account and its emailed link). */
async function apiAs(email, password) {
  const cookie = await makeMember(BASE, { email, password, name: `Bench ${email.split('@')[0]}` });
  return async (ops) => {
    const response = await fetch(`${BASE}/api/ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE, cookie },
      body: JSON.stringify({ ops: ops.map((op) => ({ id: randomUUID(), ...op })) }),
    });
    if (!response.ok) throw new Error(`push failed: ${response.status} ${await response.text()}`);
    return (await response.json()).results;
  };
}

async function device(browser, email, password, path, viewport) {
  const { context, page } = await newDevice(browser, BASE);
  if (viewport) await page.setViewportSize(viewport);
  await (await fillSignIn(page, email, password)).click();
  await page.waitForURL(`${BASE}/`);
  await page.goto(path);
  await page.getByRole('status', { name: 'Sync status: Synced' }).waitFor({ timeout: 60_000 });
  return { context, page };
}

/**
 * Resolves with the wall-clock time of the animation frame after `describedText()` of the element
 * found by `selector` (its accessible description) equals `expected`.
 */
function paintedWhen(page, selector, expected) {
  return page.evaluate(
    ({ selector: css, expected: text }) =>
      new Promise((done) => {
        const description = () => {
          const element = document.querySelector(css);
          const ids = element?.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
          const described = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
          return (described || element?.getAttribute('aria-description') || '').trim();
        };
        const check = () => {
          if (description() !== text) return false;
          observer.disconnect();
          requestAnimationFrame(() => done(Date.now()));
          return true;
        };
        const observer = new MutationObserver(check);
        if (!check()) observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      }),
    { selector, expected },
  );
}

const pendingText = (count) => (count === 0 ? 'No posts waiting for review' : `${count} post${count === 1 ? '' : 's'} waiting for review`);
const unreadText = (count) => (count === 0 ? 'No unread notifications' : `${count} unread notification${count === 1 ? '' : 's'}`);

const found = ensureChromium();
if (!found.ok) {
  console.error(found.message);
  process.exit(1);
}
const dataDir = mkdtempSync(join(os.tmpdir(), 'ie-bench-moderation-'));
const server = await startBenchServer({ port: PORT, dataDir, adminPassword: ADMIN_PASSWORD });
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
try {
  const author = await apiAs(AUTHOR, 'bench-author-quiet-harbor-7419');
  const titles = Array.from({ length: REVIEWS + WARM_UP }, (_, index) => `Moderation bench ${index + 1}`);
  const created = await author(
    titles.map((title) => ({ type: 'create', post: { title, content: `About ${title}.`, category: 'Trends' } })),
  );
  if (created.some((result) => result.status !== 'applied')) throw new Error('the server refused a benchmark post');

  const tablet = await device(browser, ADMIN, ADMIN_PASSWORD, '/admin', { width: 820, height: 1180 });
  const second = await device(browser, ADMIN, ADMIN_PASSWORD, '/forum', { width: 820, height: 1180 });
  const phone = await device(browser, AUTHOR, 'bench-author-quiet-harbor-7419', '/forum', { width: 390, height: 844 });
  const ADMIN_LINK = 'a[href="/admin"]';
  const BELL = 'button[aria-label="Notifications"], header button[title="Notifications"], [data-app-notifications]';

  const pendingTimes = [];
  const notificationTimes = [];
  // Newest first: the queue shows the newest 20.
  for (const [index, title] of [...titles].reverse().entries()) {
    const pendingPainted = paintedWhen(second.page, ADMIN_LINK, pendingText(titles.length - index - 1));
    const notified = paintedWhen(phone.page, BELL, unreadText(index + 1));
    const card = tablet.page.getByRole('article').filter({ has: tablet.page.getByRole('heading', { name: title, exact: true }) });
    const approve = card.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor();
    const clickedAt = await approve.evaluate((button) => {
      const at = Date.now();
      button.click();
      return at;
    });
    const [pendingAt, notifiedAt] = await Promise.all([pendingPainted, notified]);
    if (index >= WARM_UP) {
      pendingTimes.push(pendingAt - clickedAt);
      notificationTimes.push(notifiedAt - clickedAt);
    }
  }
  log(`pending count: ${pendingTimes.join(', ')} ms`);
  log(`notification: ${notificationTimes.join(', ')} ms`);

  const row = (name, times) =>
    `| ${name} (${times.length} approvals) | p95 ≤ 1,000 ms | p50 ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms, max ${Math.max(...times)} ms |`;
  const rows = [
    '| measure | target | result |',
    '|---|---|---|',
    row("Approve clicked on the admin's tablet → the Admin link's pending count painted on the admin's other tablet", pendingTimes),
    row("Approve clicked on the admin's tablet → the author's phone's Notifications count painted", notificationTimes),
  ];
  const about = `Date: ${new Date().toISOString().slice(0, 10)} · Chromium ${browser.version()} (headless) · ${os.cpus().length} cores · Node ${process.version} · server with embedded PGlite on 127.0.0.1 · three browser contexts (tablet 820 px, tablet 820 px, phone 390 px)`;
  const text = `# Moderation benchmark\n\nProduced by \`npm run bench:moderation\`.\n\n${about}\n\n${rows.join('\n')}\n`;
  await writeFormatted('bench/moderation-results.md', text);
  console.log(`\n${text}`);
  for (const opened of [tablet, second, phone]) await opened.context.close();
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
