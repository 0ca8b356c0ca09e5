// The floor under an import or a first sync of 100,000 posts: plain IndexedDB in Debian's Chromium,
// on a profile on disk (as a member's browser or installed app has), nothing of the app's.
//
//   node bench/idb-floor.mjs            both layouts, three runs each
//   IDB_FLOOR_POSTS=30000 node bench/idb-floor.mjs
//
// - rows: one record per post in a `posts` store with the app's five indexes (db/storage/schema.ts),
//   1,000 records per transaction;
// - blocks: the newest 5,000 posts as such rows, the rest 500 to a record in a `blocks` store (the
//   design in docs/architecture.md, "100,000 posts on a device"), 4,000 posts per transaction.
// Each run is a new database in a new profile; the time runs from the first transaction to the last
// one's complete event. Traffic stays on 127.0.0.1 (a blank page the script serves itself).
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { generatePosts } from './generate.mjs';

const POSTS = Number(process.env.IDB_FLOOR_POSTS ?? 100_000);
const RUNS = 3;
const SAMPLE = generatePosts(1_000); // realistic titles and 300–900 characters of content
const found = ensureChromium();
if (!found.ok) {
  console.error(found.message);
  process.exit(1);
}
const server = createServer((_, response) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>floor</title>'),
);
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${server.address().port}/`;

async function once(layout) {
  const profile = mkdtempSync(join(os.tmpdir(), 'idb-floor-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: found.path, args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    return await page.evaluate(
      async ({ layout, total, sample }) => {
        const db = await new Promise((resolve, reject) => {
          const request = indexedDB.open('floor', 1);
          request.onupgradeneeded = () => {
            const posts = request.result.createObjectStore('posts', { keyPath: 'id' });
            posts.createIndex('status_id', ['status', 'id']);
            posts.createIndex('status_category_id', ['status', 'category', 'id']);
            posts.createIndex('author_id', ['authorEmail', 'id']);
            posts.createIndex('rev', 'rev');
            posts.createIndex('status_arrived', ['status', 'arrivedAt']);
            request.result.createObjectStore('blocks', { keyPath: 'id' });
          };
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        // A post row as an import writes it: the bench's generated posts, cycled under new ids.
        const post = (n) => ({
          ...sample[n % sample.length],
          id: 1_800_000_000_000 + n,
          rev: n + 1,
          arrivedAt: 0,
          sync: { seq: n, likes: 0, status: 'approved', views: 0, reason: null },
        });
        const ROWS = 5_000;
        const PER_BLOCK = 500;
        const chunk = layout === 'rows' ? 1_000 : 4_000;
        const started = performance.now();
        for (let start = 0; start < total; start += chunk) {
          await new Promise((resolve, reject) => {
            const tx = db.transaction(['posts', 'blocks'], 'readwrite', { durability: 'relaxed' });
            const end = Math.min(total, start + chunk);
            for (let n = start; n < end; n += PER_BLOCK) {
              const last = Math.min(end, n + PER_BLOCK);
              if (layout === 'rows' || n >= total - ROWS) {
                for (let i = n; i < last; i += 1) tx.objectStore('posts').put(post(i));
              } else {
                const block = [];
                for (let i = n; i < last; i += 1) block.push(post(i));
                tx.objectStore('blocks').put({ id: n / PER_BLOCK, posts: block });
              }
            }
            tx.oncomplete = resolve;
            tx.onerror = () => reject(tx.error);
          });
        }
        return performance.now() - started;
      },
      { layout, total: POSTS, sample: SAMPLE },
    );
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

try {
  for (const layout of ['rows', 'blocks']) {
    const times = [];
    for (let run = 0; run < RUNS; run += 1) times.push(await once(layout));
    console.log(
      `${POSTS.toLocaleString('en-US')} posts as ${layout}: ${times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} (load ${os.loadavg()[0].toFixed(1)})`,
    );
  }
} finally {
  server.close();
}
