#!/usr/bin/env node
// `npm run bench`: builds, serves the production build, and drives Debian's Chromium through
// Insight Exchange at 1,000, 10,000 and 100,000 posts (loaded through the admin's own import
// screen). Every measure runs at least 3 times; the table of medians (and percentiles where the
// target asks for one) is printed and written to bench/results.md.
//
//   BENCH_SIZES=1000,10000   fewer sizes      BENCH_RUNS=5   more runs      BENCH_LIGHTHOUSE=0   skip Lighthouse
import { execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { backupJson } from './generate.mjs';

const PORT = 4183;
const DEBUG_PORT = 9333;
const BASE = `http://localhost:${PORT}`;
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0';
const SEARCH_DEBOUNCE_MS = 200;
const ADMIN = 'admin@insightexchange.app';
const WORK = join(process.cwd(), 'bench', '.work');

const log = (...parts) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const percentile = (values, p) => {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

// ---------------------------------------------------------------------------------------------
// Server and browser

async function startServer() {
  const server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', String(PORT), '--strictPort'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(BASE)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill();
  throw new Error(`The preview server did not start on ${BASE}`);
}

async function launch(profile, executablePath, extraArgs = []) {
  return chromium.launchPersistentContext(profile, {
    executablePath,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1280, height: 900 },
  });
}

async function signIn(page) {
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill('benchmark');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${BASE}/`);
}

async function importThroughUi(page, file) {
  await page.goto(`${BASE}/admin`);
  await page.getByRole('heading', { name: 'Pending Posts' }).waitFor();
  await page.getByLabel('Backup file').setInputFiles(file);
  const started = Date.now();
  await page.getByRole('button', { name: 'Import posts' }).click();
  await page.getByText('Import complete.').waitFor({ timeout: 20 * 60_000 });
  return Date.now() - started;
}

/**
 * Waits until the page's main thread is idle (three idle periods in a row with room to spare):
 * measures start from a settled page, as a person's tap would, not mid-start-up.
 */
async function settle(page) {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let quiet = 0;
        const check = (deadline) => {
          quiet = deadline.timeRemaining() > 40 ? quiet + 1 : 0;
          if (quiet >= 3) resolve();
          else requestIdleCallback(check, { timeout: 1_000 });
        };
        requestIdleCallback(check, { timeout: 1_000 });
      }),
  );
}

/** Warms the search index (loaded once per browser, by the shared search worker). */
async function warmSearch(page) {
  const box = page.getByLabel('Search posts');
  await box.fill('warm up');
  await page.locator('.app-results', { hasText: 'for “warm up”' }).waitFor({ timeout: 5 * 60_000 });
  await box.fill('');
  await page.locator('.app-results', { hasNotText: 'for “' }).waitFor();
}

/** Resolves in the page after the next frame has been presented (rAF, then a task). */
const NEXT_PAINT = `new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))`;

// ---------------------------------------------------------------------------------------------
// Measures

async function forumNavigation(context, runs) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 412, height: 823 });
  await page.addInitScript(() => {
    // For cold starts: the moment 20 posts are first painted, counted from navigation start.
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('article').length < 20) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (window.__coldEnd = performance.now()), 0));
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const inApp = [];
  const cold = [];
  for (let run = 0; run < runs; run += 1) {
    // In the app: from the tap on the header's brand link (it leads to /forum) to 20 posts painted.
    await page.goto(`${BASE}/profile`);
    await page.getByRole('heading', { name: 'My Posts' }).waitFor();
    await settle(page);
    await page.evaluate(`(() => {
      window.__nav = {};
      document.addEventListener('click', (event) => { window.__nav.start = performance.now(); }, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (location.pathname === '/forum' && document.querySelectorAll('article').length >= 20) {
          observer.disconnect();
          ${NEXT_PAINT}.then(() => { window.__nav.end = performance.now(); });
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    })()`);
    await page.getByRole('banner').getByRole('link', { name: 'Insight Exchange' }).click();
    await page.waitForFunction(() => window.__nav?.end !== undefined, undefined, { timeout: 60_000 });
    inApp.push(await page.evaluate(() => window.__nav.end - window.__nav.start));

    // A cold start of /forum (app shell from the service worker cache): navigation start to 20 posts painted.
    await page.goto(`${BASE}/forum`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__coldEnd !== undefined, undefined, { timeout: 60_000 });
    cold.push(await page.evaluate(() => window.__coldEnd));
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.close();
  return { inApp, cold };
}

async function domNodes(context) {
  const page = await context.newPage();
  await page.goto(`${BASE}/forum`);
  await page.waitForFunction(() => document.querySelectorAll('article').length >= 20);
  const count = await page.evaluate(() => document.getElementsByTagName('*').length);
  await page.close();
  return count;
}

const SEARCHES = [
  'panel',
  'weighting',
  'conjoint pricing',
  'no-such-words-anywhere',
  'llm',
  'diary',
  'mobile-first',
  'pilot of fifty',
  'b2b',
  'SEGMENTATION',
];

async function searchLatency(context, samples) {
  const page = await context.newPage();
  await page.goto(`${BASE}/forum`);
  await page.getByRole('article').first().waitFor();
  const box = page.getByLabel('Search posts');
  // The first search waits for the worker to load the index: measure searches, not the load.
  await warmSearch(page);
  await settle(page);
  const results = [];
  for (let i = 0; i < samples; i += 1) {
    const query = SEARCHES[i % SEARCHES.length];
    await box.fill('');
    await page.locator('.app-results', { hasNotText: 'for “' }).waitFor();
    await page.evaluate(`(() => {
      window.__search = {};
      const input = document.getElementById('forum-search');
      input.addEventListener('input', (event) => { window.__search.start = event.timeStamp; }, { once: true });
      const summary = () => document.querySelector('.app-results')?.textContent ?? '';
      const observer = new MutationObserver(() => {
        if (summary().includes('for “${query.trim()}”') && !document.querySelector('.app-post-list.is-stale')) {
          observer.disconnect();
          ${NEXT_PAINT}.then(() => { window.__search.end = performance.now(); });
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    await box.fill(query);
    await page.waitForFunction(() => window.__search?.end !== undefined, undefined, { timeout: 60_000 });
    results.push(await page.evaluate((debounce) => window.__search.end - window.__search.start - debounce, SEARCH_DEBOUNCE_MS));
  }
  await page.close();
  return results;
}

async function likeLatency(context, clicks, throttle = 1) {
  const page = await context.newPage();
  await page.goto(`${BASE}/forum`);
  await page.getByRole('article').first().waitFor();
  await warmSearch(page);
  await settle(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await page.evaluate(`(() => {
    window.__like = { interactions: new Map(), painted: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!entry.interactionId) continue;
        const seen = window.__like.interactions.get(entry.interactionId) ?? 0;
        window.__like.interactions.set(entry.interactionId, Math.max(seen, entry.duration));
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
    const button = document.querySelector('article .app-like');
    const count = button;
    let start = 0;
    button.addEventListener('click', (event) => { start = event.timeStamp; }, { capture: true });
    new MutationObserver(() => {
      const clickedAt = start;
      ${NEXT_PAINT}.then(() => window.__like.painted.push(performance.now() - clickedAt));
    }).observe(count, { childList: true, characterData: true, subtree: true });
  })()`);
  const button = page.getByRole('article').first().getByRole('button', { name: /^Like/ });
  for (let i = 0; i < clicks; i += 1) {
    await button.click();
    await page.waitForFunction((n) => window.__like.painted.length >= n, i + 1);
  }
  // Let the last interactions' Event Timing entries arrive.
  await page.evaluate(NEXT_PAINT);
  const { painted, inp } = await page.evaluate(() => ({ painted: window.__like.painted, inp: [...window.__like.interactions.values()] }));
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.close();
  // Interactions faster than 16 ms produce no Event Timing entry: count them as 16 ms (an upper bound).
  const perClick = [...inp, ...Array.from({ length: Math.max(0, clicks - inp.length) }, () => 16)];
  return { painted, inp: perClick };
}

async function crossTabLatency(context, samples) {
  // Two windows side by side, both visible (a second tab in the same window would be a hidden
  // background tab, whose frames Chromium slows to about one a second).
  const a = await context.newPage();
  await a.goto(`${BASE}/forum`);
  const [b] = await Promise.all([
    context.waitForEvent('page'),
    a.evaluate(() => window.open('/forum', '_blank', 'popup,width=900,height=900')),
  ]);
  for (const page of [a, b]) await page.getByRole('article').first().waitFor();
  await warmSearch(a);
  await settle(a);
  await settle(b);
  await b.evaluate(`(() => {
    window.__seen = [];
    const count = document.querySelector('article .app-like');
    new MutationObserver(() => {
      ${NEXT_PAINT}.then(() => window.__seen.push(performance.timeOrigin + performance.now()));
    }).observe(count, { childList: true, characterData: true, subtree: true });
  })()`);
  await a.evaluate(`(() => {
    window.__clicks = [];
    document.querySelector('article .app-like').addEventListener('click', (event) => window.__clicks.push(performance.timeOrigin + event.timeStamp), { capture: true });
  })()`);
  const button = a.getByRole('article').first().getByRole('button', { name: /^Like/ });
  for (let i = 0; i < samples; i += 1) {
    await button.click();
    await b.waitForFunction((n) => window.__seen.length >= n, i + 1, { timeout: 30_000, polling: 20 });
    if (process.env.BENCH_DEBUG === '1') log(`    cross-tab sample ${i + 1}`);
  }
  const clicks = await a.evaluate(() => window.__clicks);
  const seen = await b.evaluate(() => window.__seen);
  await a.close();
  await b.close();
  return clicks.map((clicked, i) => seen[i] - clicked);
}

async function lighthouseScores(runs) {
  const { default: lighthouse } = await import('lighthouse');
  const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
  const scores = {};
  for (const path of ['/', '/forum']) {
    const runsFor = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await lighthouse(`${BASE}${path}`, {
        port: DEBUG_PORT,
        output: 'json',
        logLevel: 'error',
        onlyCategories: categories,
        // Keep the profile's session, posts and service worker: /forum is for members.
        disableStorageReset: true,
      });
      runsFor.push(Object.fromEntries(categories.map((category) => [category, Math.round(result.lhr.categories[category].score * 100)])));
      if (run === 0) {
        const lcp = result.lhr.audits['largest-contentful-paint']?.displayValue;
        const tbt = result.lhr.audits['total-blocking-time']?.displayValue;
        log(`  Lighthouse ${path}: LCP ${lcp}, TBT ${tbt}`);
      }
    }
    scores[path] = Object.fromEntries(categories.map((category) => [category, median(runsFor.map((run) => run[category]))]));
  }
  return scores;
}

// ---------------------------------------------------------------------------------------------
// One size

async function benchSize(size, executablePath) {
  mkdirSync(WORK, { recursive: true });
  const file = join(WORK, `backup-${size}.json`);
  writeFileSync(file, backupJson(size));
  const imports = [];
  let kept;
  for (let run = 0; run < RUNS; run += 1) {
    const profile = mkdtempSync(join(WORK, `profile-${size}-`));
    const useLighthouse = LIGHTHOUSE && size === 10_000 && run === RUNS - 1;
    const context = await launch(profile, executablePath, useLighthouse ? [`--remote-debugging-port=${DEBUG_PORT}`] : []);
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page);
    const took = await importThroughUi(page, file);
    imports.push(took);
    log(`${size.toLocaleString('en-US')} posts: import ${run + 1}/${RUNS} took ${(took / 1000).toFixed(1)} s`);
    if (run < RUNS - 1) {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    } else {
      kept = { context, profile, page };
    }
  }
  const { context, profile, page } = kept;
  await page.close();
  const result = { size, imports };
  result.navigation = await forumNavigation(context, Math.max(RUNS, 5));
  log(
    `  forum navigation (4x CPU): in-app median ${median(result.navigation.inApp).toFixed(0)} ms, cold median ${median(result.navigation.cold).toFixed(0)} ms`,
  );
  result.domNodes = await domNodes(context);
  result.search = await searchLatency(context, Math.max(RUNS, 20));
  log(`  search p95 ${percentile(result.search, 95).toFixed(0)} ms`);
  result.like = await likeLatency(context, 50);
  log(
    `  like INP p98 ${percentile(result.like.inp, 98).toFixed(0)} ms, click to count painted p98 ${percentile(result.like.painted, 98).toFixed(0)} ms`,
  );
  result.likeThrottled = await likeLatency(context, 20, 4);
  log(`  like at 4x CPU: click to count painted p98 ${percentile(result.likeThrottled.painted, 98).toFixed(0)} ms`);
  result.crossTab = await crossTabLatency(context, Math.max(RUNS, 20));
  log(`  cross-tab p95 ${percentile(result.crossTab, 95).toFixed(0)} ms`);
  if (LIGHTHOUSE && size === 10_000) {
    result.lighthouse = await lighthouseScores(RUNS);
    log(`  Lighthouse ${JSON.stringify(result.lighthouse)}`);
  }
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(file, { force: true });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report

const TARGETS = {
  navigation: { 10_000: 300, 100_000: 500 },
  search: { 10_000: 100, 100_000: 150 },
  inp: { 10_000: 50, 100_000: 50 },
  crossTab: { 10_000: 100, 100_000: 100 },
  dom: { 10_000: 800, 100_000: 800 },
  import: { 10_000: 5_000, 100_000: 60_000 },
};

function cell(value, target, unit = 'ms') {
  if (value === undefined) return 'n/a';
  const shown = unit === 'ms' ? `${Math.round(value)} ms` : unit === 's' ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)}`;
  if (target === undefined) return shown;
  return `${shown} ${value <= target ? '✓' : `✗ (target ${unit === 's' ? `${target / 1000} s` : target})`}`;
}

function table(results, chromiumVersion) {
  const bySize = Object.fromEntries(results.map((result) => [result.size, result]));
  const sizes = results.map((result) => result.size);
  const header = `| measure | ${sizes.map((size) => `${size.toLocaleString('en-US')} posts`).join(' | ')} |`;
  const rule = `|---|${sizes.map(() => '---').join('|')}|`;
  const row = (label, pick, targetKey, unit) =>
    `| ${label} | ${sizes.map((size) => cell(pick(bySize[size]), TARGETS[targetKey]?.[size], unit)).join(' | ')} |`;
  const lines = [
    header,
    rule,
    row('/forum navigation in the app to 20 posts painted, 4x CPU, 412x823 (median)', (r) => median(r.navigation.inApp), 'navigation'),
    row('/forum cold start (shell from the service worker) to 20 posts painted, 4x CPU (median)', (r) => median(r.navigation.cold)),
    row('search keystroke to results painted, after the 200 ms debounce (p95)', (r) => percentile(r.search, 95), 'search'),
    row('search, median', (r) => median(r.search)),
    row('like click INP, Event Timing (p98 of 50 clicks)', (r) => percentile(r.like.inp, 98), 'inp'),
    row('like click to count painted (p98 of 50 clicks)', (r) => percentile(r.like.painted, 98)),
    row('like click to count painted, 4x CPU (p98 of 20 clicks)', (r) => percentile(r.likeThrottled.painted, 98)),
    row('like in one tab to count painted in another (p95)', (r) => percentile(r.crossTab, 95), 'crossTab'),
    row('DOM nodes on /forum after load', (r) => r.domNodes, 'dom', 'count'),
    row('import through the UI with progress (median)', (r) => median(r.imports), 'import', 's'),
  ];
  const lighthouse = results.find((result) => result.lighthouse)?.lighthouse;
  const lighthouseLines = lighthouse
    ? [
        '',
        `Lighthouse ${'12.8'} mobile (simulated throttling), 10,000 posts, median of ${RUNS} runs (target 100 each):`,
        '',
        '| page | performance | accessibility | best practices | SEO |',
        '|---|---|---|---|---|',
        ...Object.entries(lighthouse).map(
          ([path, s]) => `| ${path} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} |`,
        ),
      ]
    : [];
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // not a git checkout
  }
  const about = [
    `Date: ${new Date().toISOString().slice(0, 10)} · Chromium ${chromiumVersion} (headless) · ${os.cpus().length} cores · Node ${process.version} · commit ${commit}`,
    `Runs: every measure at least ${RUNS} times (searches 20, likes 50, cross-tab 20); production build served by vite preview.`,
  ];
  return [...about, '', ...lines, ...lighthouseLines].join('\n');
}

// ---------------------------------------------------------------------------------------------

const chromiumFound = ensureChromium();
if (!chromiumFound.ok) {
  console.error(chromiumFound.message);
  process.exit(1);
}
log('Building the production app…');
execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
rmSync(WORK, { recursive: true, force: true });
const server = await startServer();
const results = [];
const probe = await chromium.launch({ executablePath: chromiumFound.path, args: CHROMIUM_ARGS });
const chromiumVersion = probe.version();
await probe.close();
try {
  for (const size of SIZES) {
    log(`${size.toLocaleString('en-US')} posts…`);
    results.push(await benchSize(size, chromiumFound.path));
  }
} finally {
  server.kill();
  rmSync(WORK, { recursive: true, force: true });
}
const report = table(results, chromiumVersion);
// The "## Server" section belongs to `npm run bench:server` (bench/server.mjs): keep it.
const serverSection =
  /\n## Server\n[\s\S]*$/.exec(existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '')?.[0] ?? '';
writeFileSync('bench/results.md', `# Benchmark results\n\nProduced by \`npm run bench\`.\n\n${report}\n${serverSection}`);
console.log(`\n${report}\n\nWritten to bench/results.md`);
