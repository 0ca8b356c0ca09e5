#!/usr/bin/env node
// `npm run bench:markdown`: what Markdown costs, on the production build served as a static site
// (local-only mode), in Debian's Chromium at 1x CPU, 1280x900. Written to bench/results.md,
// section "Writing: Markdown":
//   - the size of the Markdown code (the chunks holding markdown-it and DOMPurify), gzip level 9,
//     and that /forum's first load fetches none of it;
//   - a 20,000-character Markdown post (headings, lists, a table, code, quotes, links), written
//     straight into IndexedDB: from the click on its title on /forum (the click event's time) to
//     the frame that first shows it rendered (rAF, then a task, after the rendered Markdown is in
//     the DOM), and on a full page load of /posts/:id (service worker in control) from navigation
//     start to the same frame; BENCH_RUNS runs each (at least 5), the median reported.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { writeSection } from './sections.mjs';
import { startPreview } from './preview.mjs';
import { fullLoad, inAppNavigation, signInAsAdmin } from './post-page.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4185);
const BASE = `http://localhost:${PORT}`;
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
const KB = 1024;
/** The post's Markdown rendered (its table is there): the post is painted. */
const RENDERED = '.app-markdown:not(.is-plain) table';

const log = (...parts) => console.log(`[bench:markdown ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value) => Math.round(value);

/** The built chunks that hold the Markdown code, with their gzip sizes. */
function markdownChunks() {
  const dir = 'dist/assets';
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, source: readFileSync(join(dir, name)) }))
    .filter(({ source }) => {
      const text = source.toString('utf8');
      // markdown-it's and DOMPurify's own strings (they survive minification).
      return text.includes('linkify') || text.includes('DOMPurify') || text.includes('uponSanitizeAttribute');
    })
    .map(({ name, source }) => ({ name, gzip: gzipSync(source, { level: 9 }).length }));
}

/** About 20,000 characters of the Markdown a researcher writes. */
function longPost() {
  const section = (n) =>
    [
      `### Wave ${n}: what moved`,
      '',
      `In wave ${n} we compared the **online panel** against a *fresh sample* and saw the same shift in brand consideration; see [the method note](https://example.com/method-${n}).`,
      '',
      '| Segment | n | Consideration | Δ vs last wave |',
      '| --- | ---: | ---: | ---: |',
      `| 18-24 | ${200 + n} | 41% | +3 |`,
      `| 25-34 | ${310 + n} | 38% | +1 |`,
      `| 35-54 | ${420 + n} | 33% | -2 |`,
      '',
      '- weighting kept as it was',
      '- open-ends double-coded (20%)',
      '  1. codebook v3',
      '  2. kappa above 0.8',
      '',
      '> Quotas were met in every cell but one.',
      '',
      '```r',
      `fit <- glm(consider ~ segment + wave, data = w${n}, family = binomial)`,
      'summary(fit)',
      '```',
      '',
    ].join('\n');
  let text = '';
  for (let n = 1; text.length < 20_000; n += 1) text += section(n);
  return text.slice(0, 20_000);
}

/** Writes the long post as an approved post straight into IndexedDB; returns its id. */
function writePost(page, content) {
  return page.evaluate(async (text) => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const id = Date.now();
    const tx = db.transaction(['posts'], 'readwrite');
    tx.objectStore('posts').put({
      id,
      title: 'Twelve waves of a brand tracker, in one post',
      content: text,
      category: 'Quantitative',
      author: 'Bench Writer',
      authorEmail: 'bench@example.com',
      authorRole: 'user',
      likes: 0,
      comments: 0,
      views: 0,
      date: 'Just now',
      isTopContributor: false,
      tags: [],
      status: 'approved',
    });
    await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
    db.close();
    return id;
  }, content);
}

/** The scripts a full load of /forum fetches (a fresh signed-in context, no service worker). */
async function forumScripts(browser) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await signIn(await context.newPage());
  const page = await context.newPage();
  const scripts = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.split('/').pop());
  });
  await page.goto(`${BASE}/forum`);
  await page.locator('article').first().waitFor();
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 })));
  await context.close();
  return scripts;
}

async function signIn(page) {
  await signInAsAdmin(page, BASE);
  await page.close();
}

const chromiumFound = ensureChromium();
if (!chromiumFound.path) throw new Error(chromiumFound.message);
const chunks = markdownChunks();
if (chunks.length === 0) throw new Error('No built chunk holds the Markdown code: run `npm run build` first.');
const preview = await startPreview(PORT, BASE);
const profile = mkdtempSync(join(os.tmpdir(), 'ie-bench-markdown-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumFound.path,
  args: CHROMIUM_ARGS,
  viewport: { width: 1280, height: 900 },
});
const browser = await chromium.launch({ executablePath: chromiumFound.path, args: CHROMIUM_ARGS });
try {
  const fetched = await forumScripts(browser);
  const leaked = chunks.filter((chunk) => fetched.includes(chunk.name));
  await signIn(await context.newPage());
  const page = await context.newPage();
  await page.goto(`${BASE}/forum`);
  await page.locator('article').first().waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
  const content = longPost();
  const postId = await writePost(page, content);
  await page.close();
  const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
  log(
    `Markdown chunks: ${chunks.map((chunk) => `${chunk.name} ${(chunk.gzip / KB).toFixed(1)} KB`).join(', ')}; fetched by /forum: ${leaked.length}`,
  );
  log(`a post of ${content.length.toLocaleString('en-US')} characters; ${RUNS} runs per measure`);
  const navigation = await inAppNavigation(context, BASE, postId, RENDERED, RUNS);
  log(`  in-app navigation: ${navigation.map(round).join(', ')} ms`);
  const load = await fullLoad(context, BASE, postId, RENDERED, RUNS);
  log(`  full load: ${load.map(round).join(', ')} ms`);
  const [load1] = os.loadavg();
  const body = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:markdown\` (bench/markdown.mjs): the production build,`,
    `local-only, Chromium ${context.browser()?.version() ?? ''} at 1x CPU, 1280x900, a post of ${content.length.toLocaleString('en-US')} characters of Markdown`,
    `(headings, tables, lists, quotes, fenced code, links; ${RUNS} runs each; machine load average ${load1.toFixed(1)}).`,
    '',
    '| measure | median | runs |',
    '| --- | --- | --- |',
    `| the Markdown code (markdown-it + DOMPurify + the renderer), gzip level 9 | ${(total / KB).toFixed(1)} KB | ${chunks.map((chunk) => `${chunk.name} ${(chunk.gzip / KB).toFixed(1)} KB`).join('; ')} |`,
    `| of it fetched by /forum's first load | ${leaked.length === 0 ? '0 KB' : `${(leaked.reduce((sum, chunk) => sum + chunk.gzip, 0) / KB).toFixed(1)} KB`} | ${fetched.length} scripts fetched |`,
    `| in-app navigation: click on the post's title on /forum to the frame showing it rendered | ${round(median(navigation))} ms | ${navigation.map(round).join(', ')} |`,
    `| full page load of /posts/:id to the frame showing it rendered | ${round(median(load))} ms | ${load.map(round).join(', ')} |`,
  ].join('\n');
  await writeSection('bench/results.md', 'Writing: Markdown', body);
  log('written to bench/results.md');
} finally {
  await browser.close();
  await context.close();
  preview.kill();
  rmSync(profile, { recursive: true, force: true });
}
