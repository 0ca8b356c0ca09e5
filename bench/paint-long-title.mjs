// Measures how long /forum takes to paint a post whose title, author and category are one long
// run without spaces (defect 1 of issue 9). Start: page.goto('/forum') is called; stop: the card
// with that title is visible. Usage: node bench/paint-long-title.mjs <dist dir> <port>
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../scripts/chromium.mjs';

const [root = 'dist', port = '4202'] = process.argv.slice(2);
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
};
const server = createServer((request, response) => {
  let file = join(root, normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, ''));
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
  response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(Number(port), '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const base = `http://localhost:${port}`;

async function measure(label, post) {
  const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill('admin@insightexchange.app');
  await page.getByLabel('Password').fill('pass-1234');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${base}/`);
  await page.goto('/forum');
  await page.getByRole('article').first().waitFor();
  await page.evaluate(async (row) => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise((resolve, reject) => {
      const tx = db.transaction('posts', 'readwrite');
      tx.objectStore('posts').put(row);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, post);
  const times = [];
  for (let run = 0; run < 2; run += 1) {
    const start = Date.now();
    await page.goto('/forum');
    await page
      .locator('article h3', { hasText: post.title.slice(0, 50) })
      .first()
      .waitFor({ timeout: 120_000 });
    times.push(Date.now() - start);
  }
  console.log(`${label}: ${times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`);
  await context.close();
}

const post = (title, author, category) => ({
  id: 1_960_000_000_000,
  title,
  author,
  category,
  content: 'Body',
  authorEmail: 'a@x.io',
  authorRole: 'user',
  likes: 0,
  comments: 0,
  views: 0,
  date: '',
  isTopContributor: false,
  tags: [],
  status: 'approved',
});
await measure(
  '300,000 × "T" title, "AV" × 50,000 author, 100,000-char category',
  post('T'.repeat(300_000), 'AV'.repeat(50_000), 'C'.repeat(100_000)),
);
await measure('the same lengths with spaces', post('Tt '.repeat(100_000), 'AV '.repeat(33_333), 'Cc '.repeat(33_333)));
await browser.close();
server.close();
