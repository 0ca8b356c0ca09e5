// Screenshots of a windowed device (issue 44) at phone, tablet and desktop widths: the end of a
// category's list offline, the storage panel. Not part of any run: `node bench/shots-window.mjs <dir>`.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { PGlite } from '@electric-sql/pglite';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { BENCH_PASSWORD, Session, startServer } from './server/harness.mjs';

const out = process.argv[2] ?? '/tmp/shots';
const dataDir = mkdtempSync(join(os.tmpdir(), 'ie-shots-'));
const first = await startServer({ DATA_DIR: dataDir });
await first.stop();
const pglite = await PGlite.create({ dataDir });
const [head] = (await pglite.query('SELECT seq, last_post_id FROM change_head')).rows;
const base = Math.max(Number(head.last_post_id), Date.now()) + 1;
await pglite.query(
  `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
   SELECT $1::bigint + n, 'Seeded post ' || n, 'A paragraph of seeded content.', CASE WHEN n % 500 = 0 THEN 'Case Studies' ELSE 'Trends' END,
     'Seeded', 'seeded@example.com', 'user', 0, 0, 0, 'Just now', false, '[]'::jsonb, 'approved', $2::bigint + n FROM generate_series(1, 3000) AS n`,
  [base, Number(head.seq)],
);
await pglite.query('UPDATE change_head SET seq = $1, last_post_id = $2', [Number(head.seq) + 3000, base + 3000]);
await pglite.close();
const server = await startServer({ DATA_DIR: dataDir }, { limits: 'keep' });
const browser = await chromium.launch({ executablePath: ensureChromium().path, args: CHROMIUM_ARGS });
try {
  await new Session(server.url).signIn('shots@bench.example');
  for (const [name, width, height] of [
    ['phone', 390, 844],
    ['tablet', 820, 1180],
    ['desktop', 1280, 900],
  ]) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('shots@bench.example');
    await page.getByLabel('Password').fill(BENCH_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    await page.goto('/forum');
    await page.getByRole('status', { name: 'Sync status: Synced' }).waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    await page.getByLabel('Category').selectOption('Case Studies');
    await page.getByText('That’s everything this device holds in Case Studies.').waitFor();
    await page.getByText('That’s everything this device holds').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/${name}-offline-end.png` });
    await context.setOffline(false);
    await page.getByLabel('Category').selectOption('All');
    await page.getByLabel('Search posts').fill('"Seeded post 12"');
    await page.getByRole('region', { name: /Results from the server/ }).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${out}/${name}-server-search.png` });
    await page.goto('/profile');
    await page.getByTestId('forum-held').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/${name}-storage.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
