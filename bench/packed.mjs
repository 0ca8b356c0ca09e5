#!/usr/bin/env node
// `npm run bench:packed`: a local-only device after an import of BENCH_PACKED_POSTS (100,000) posts,
// whose older approved posts are packed 500 to a record (issue 44, item 5; db/posts/packed.ts).
// The production build served as a static site, Debian's Chromium on a profile on disk, 1x CPU,
// 1280×900. One profile: the admin signs in and imports the bench's backup through /admin, then:
//
// - an older page: in one category (Case Studies) the list's own pages are loaded to their end,
//   then "Load older posts" is pressed PAGES times; each from the click to the frame after the
//   list has more cards (posts unpacked, stored and rendered);
// - a search only packed posts answer: a title's number, typed into the search box; from the
//   input event to the frame after the post's card shows (the search waits 150 ms after typing,
//   then reads every block), QUERIES times;
// - a link to a packed post: a full page load of /posts/:id to the frame after its title;
// - the origin's storage use (navigator.storage.estimate) after the import.
//
// Prints a Markdown table; bench/results.md keeps the figures. Traffic stays on 127.0.0.1.
import { backupJson } from './generate.mjs';
import { newDiskDevice } from './devices.mjs';
import { signInAsAdmin } from './post-page.mjs';
import { startPreview } from './preview.mjs';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.BENCH_PORT ?? 4187);
const BASE = `http://127.0.0.1:${PORT}`;
const POSTS = Number(process.env.BENCH_PACKED_POSTS ?? 100_000);
const PAGES = 10;
const QUERIES = 10;
const LINKS = 5;
const WORK = join(process.cwd(), 'bench', '.work');

const log = (...parts) => console.log(`[bench:packed ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const figures = (values) => `${quantile(values, 0.5).toFixed(0)} / ${quantile(values, 0.95).toFixed(0)} ms`;

/** In the page: resolves with the time of the frame after `done()` first holds, from a mutation on. */
const paintedWhen = (page, check, arg) =>
  page.evaluate(
    ([source, value]) =>
      new Promise((resolve) => {
        const done = new Function('value', `return (${source})(value)`);
        const settle = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
        if (done(value)) return settle();
        setTimeout(() => resolve(Number.NaN), 30_000);
        const observer = new MutationObserver(() => {
          if (!done(value)) return;
          observer.disconnect();
          settle();
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
    [check.toString(), arg],
  );

mkdirSync(WORK, { recursive: true });
const file = join(WORK, `backup-${POSTS}.json`);
writeFileSync(file, backupJson(POSTS));
const preview = await startPreview(PORT, BASE);
const { context, page } = await newDiskDevice(BASE);
try {
  await signInAsAdmin(page, BASE);
  await page.goto(`${BASE}/admin`);
  await page.getByLabel('Backup file').setInputFiles(file);
  const started = Date.now();
  await page.getByRole('button', { name: 'Import posts' }).click();
  await page
    .getByText('Import complete.')
    .first()
    .waitFor({ timeout: 10 * 60_000 });
  log(`import of ${POSTS.toLocaleString('en-US')} posts: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);

  // Older pages in one category.
  await page.goto(`${BASE}/forum?category=${encodeURIComponent('Case Studies')}`);
  await page.getByRole('article').first().waitFor();
  const pages = [];
  for (let n = 0; n < PAGES; n += 1) {
    // Found and clicked in one task (the list may re-render between two evaluations); the list's
    // own next page first when it shows instead (its count catches up after each page unpacked).
    await page.waitForFunction(
      () => {
        window.scrollTo(0, 0);
        const buttons = [...document.querySelectorAll('.app-load-more button')];
        if (buttons.some((button) => button.getAttribute('aria-disabled') === 'true')) return false;
        const older = buttons.find((button) => button.textContent === 'Load older posts');
        if (!older) {
          buttons.find((button) => button.textContent?.startsWith('Load more posts'))?.click();
          return false;
        }
        const before = document.querySelectorAll('article').length;
        window.__older = { clicked: performance.now() };
        const observer = new MutationObserver(() => {
          if (document.querySelectorAll('article').length <= before) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => (window.__older.painted = performance.now()), 0));
        });
        observer.observe(document.body, { childList: true, subtree: true });
        older.click();
        return true;
      },
      undefined,
      { polling: 100, timeout: 120_000 },
    );
    await page.waitForFunction(() => window.__older.painted !== undefined, undefined, { timeout: 30_000 });
    pages.push(await page.evaluate(() => window.__older.painted - window.__older.clicked));
  }
  log(`older pages: ${pages.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  // Packed posts spread over the blocks: a title's number each ("(#123)", which only that post's
  // title holds) for the searches, and ids for the links.
  const packed = await page.evaluate(async () => {
    const db = await new Promise((resolve) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
    });
    const blocks = await new Promise((resolve) => {
      const request = db.transaction('postBlocks').objectStore('postBlocks').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return blocks.map((block) => block.posts[Math.floor(block.posts.length / 2)]).map((post) => ({ id: post.id, title: post.title }));
  });
  const spread = (count) => packed.filter((_, at) => at % Math.max(1, Math.floor(packed.length / count)) === 0);
  const numbers = spread(QUERIES * 2)
    .filter((_, at) => at % 2 === 0)
    .slice(0, QUERIES)
    .map((post) => post.title.match(/\(#\d+\)/)[0]);
  const ids = spread(LINKS * 2)
    .filter((_, at) => at % 2 === 1)
    .slice(0, LINKS)
    .map((post) => post.id);

  // Searches only packed posts answer.
  await page.goto(`${BASE}/forum`);
  await page.getByRole('article').first().waitFor();
  const searches = [];
  for (const number of numbers) {
    const box = page.getByLabel('Search posts');
    await box.fill('');
    await page.getByRole('article').first().waitFor();
    const painted = paintedWhen(
      page,
      (title) => [...document.querySelectorAll('article h3')].some((heading) => heading.textContent?.includes(title)),
      number,
    );
    painted.catch(() => undefined);
    const typed = await page.evaluate(
      (value) =>
        new Promise((resolve) => {
          const input = document.querySelector('input[type="search"]');
          input.addEventListener('input', (event) => resolve(event.timeStamp), { once: true });
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
          setter.call(input, value);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      number,
    );
    searches.push((await painted) - typed);
  }
  log(`searches: ${searches.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  // Links to packed posts: a full load of each post's page.
  const links = [];
  for (const id of ids) {
    await page.goto(`${BASE}/posts/${id}`);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: '(#' }).waitFor();
    links.push(await page.evaluate(() => performance.now()));
  }
  log(`links: ${links.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  console.log(`
| measure (${POSTS.toLocaleString('en-US')} posts imported, local-only, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}) | figure |
| --- | --- |
| an older page of a category: "Load older posts" clicked → the list's new cards painted, p50 / p95 of ${PAGES} | ${figures(pages)} |
| a search only packed posts answer: the input event → its card painted (150 ms wait after typing included), p50 / p95 of ${QUERIES} | ${figures(searches)} |
| a link to a packed post: full load of /posts/:id, navigation start → its title found, p50 / p95 of ${LINKS} | ${figures(links)} |
| the origin's storage use after the import (navigator.storage.estimate) | ${(usage / 1024 / 1024).toFixed(0)} MB |
`);
} finally {
  await context.close();
  preview.kill();
}
