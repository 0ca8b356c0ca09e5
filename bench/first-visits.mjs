#!/usr/bin/env node
// `node bench/first-visits.mjs` (after `npm run build`): the slow screens as a new member meets them
// (issue 64, item 4). The production build served with its server (connected mode, an embedded
// database in a temporary folder) on 127.0.0.1; every run a fresh browser context at 1280x800 (no
// HTTP cache, no service worker), at 1x and 4x CPU (CDP Emulation.setCPUThrottlingRate), five runs
// each, median and max, for:
//   - the forum's first load, signed in: navigation start -> the frame after the first article
//     with a heading (signed in through /login untimed, then the HTTP cache emptied, then a new tab);
//   - New Post's first open: the click -> the frame after its Title field is visible and focused;
//   - Insights (/admin/insights, the admin signed in the same way): navigation start -> the frame
//     after every chart is drawn;
//   - Sign In on a fresh browser: /login's own first frame with its Sign In button, then the click
//     on Sign In -> the frame after the forum's first article (Go to Forum clicked once offered).
// One more run of each, not counted, with the CDP CPU profiler on: its top self-time functions and
// files go to bench/first-visits-profile.md. The figures are kept per label (BENCH_LABEL, "after"
// unless told) in bench/first-visits-results.json, so a run of an older build (BENCH_SERVER and
// BENCH_DIST pointing at a copy of its dist-server/ and dist/) sits beside them in bench/results.md.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { makeMember, startBenchServer } from './server-process.mjs';
import { Session } from './server/harness.mjs';
import { writeFormatted, writeSection } from './sections.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4810);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 5));
const RATES = (process.env.BENCH_RATES ?? '1,4').split(',').map(Number);
const LABEL = process.env.BENCH_LABEL ?? 'after';
const SERVER = resolve(process.env.BENCH_SERVER ?? 'dist-server/server.js');
const DIST = resolve(process.env.BENCH_DIST ?? 'dist');
const POSTS = 60;
const ADMIN = { email: 'admin@insightexchange.app', password: 'bench-admin-quiet-harbor-7419' };
const MEMBER = { email: 'first-visit@example.com', password: 'bench-member-quiet-harbor-7419', name: 'First Visit Bench' };
const RESULTS = 'bench/first-visits-results.json';
const log = (...parts) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

for (const rate of RATES) if (!(rate >= 1 && rate <= 20)) throw new Error(`BENCH_RATES: "${rate}" is not a CPU slowdown between 1 and 20`);
if (!existsSync(SERVER)) throw new Error(`No server at ${SERVER}: run npm run build first (or point BENCH_SERVER at one).`);

/**
 * In every document of a context, before its scripts: the moments each measure waits for, taken in
 * the page (performance.now, from the navigation's start), so the bench's own round trips do not
 * count. A moment is the frame after its condition first holds (a frame, then a task).
 */
function watchMoments() {
  const moments = {};
  window.__moments = moments;
  const visible = (element) => element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const conditions = {
    article: () => [...document.querySelectorAll('article')].some((article) => article.querySelector('h1, h2, h3, h4, h5, h6')),
    login: () => [...document.querySelectorAll('button')].some((button) => button.textContent?.trim() === 'Sign In' && visible(button)),
    newPost: () => {
      const field = document.activeElement;
      return moments.clicked > 0 && field instanceof HTMLInputElement && field.closest('.modal') !== null && visible(field);
    },
    insights: () => {
      const charts = [...document.querySelectorAll('.app-chart-canvas')];
      return (
        document.querySelector('.app-insights-source') !== null &&
        charts.length > 0 &&
        charts.every((chart) => chart.querySelector('canvas'))
      );
    },
  };
  const check = () => {
    for (const [name, holds] of Object.entries(conditions)) {
      if (moments[name] || !holds()) continue;
      moments[name] = -1;
      requestAnimationFrame(() => setTimeout(() => (moments[name] = performance.now()), 0));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  document.addEventListener('focusin', check, { capture: true });
  document.addEventListener('transitionend', check, { capture: true });
  document.addEventListener('click', () => (moments.clicked ||= performance.now()), { capture: true });
}

const until = (page, name) => page.waitForFunction((key) => window.__moments?.[key] > 0, name, { timeout: 120_000 });
const moment = (page, name) => page.evaluate((key) => window.__moments[key], name);

/** A fresh context (a browser that never came here): desktop size, no service worker, the watcher. */
async function freshContext(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  await context.addInitScript(watchMoments);
  return context;
}

/** A tab with the CPU slowed `rate` times and, when `profiled`, the CPU profiler ready. */
async function tab(context, rate) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  return { page, cdp };
}

async function signInThroughForm(page, who) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs `who` in through /login (not timed), then empties the HTTP cache: the next tab fetches everything. */
async function signedInContext(browser, who) {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await signInThroughForm(page, who);
  await page.getByRole('link', { name: 'Go to Forum' }).first().waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  return context;
}

/** Runs `action` with the profiler on when `profiles` is given, keeping the profile under `name`. */
async function measured(cdp, profiles, name, action) {
  if (profiles) await cdp.send('Profiler.start');
  await action();
  if (profiles) profiles[name] = (await cdp.send('Profiler.stop')).profile;
}

/** One run of every measure at `rate`; with `profiles`, their CPU profiles too. */
async function run(browser, rate, profiles) {
  const seen = {};
  const member = await signedInContext(browser, MEMBER);
  try {
    const { page, cdp } = await tab(member, rate);
    await measured(cdp, profiles, 'forum', async () => {
      await page.goto(`${BASE}/forum`);
      await until(page, 'article');
    });
    seen.forum = await moment(page, 'article');
    const newPost = page.locator('button.app-new-post:visible').first();
    await newPost.waitFor();
    await measured(cdp, profiles, 'newPost', async () => {
      await newPost.click();
      await until(page, 'newPost');
    });
    seen.newPost = (await moment(page, 'newPost')) - (await moment(page, 'clicked'));
  } finally {
    await member.close();
  }
  const admin = await signedInContext(browser, ADMIN);
  try {
    const { page, cdp } = await tab(admin, rate);
    await measured(cdp, profiles, 'insights', async () => {
      await page.goto(`${BASE}/admin/insights`);
      await until(page, 'insights');
    });
    seen.insights = await moment(page, 'insights');
  } finally {
    await admin.close();
  }
  const fresh = await freshContext(browser);
  try {
    const { page, cdp } = await tab(fresh, rate);
    await measured(cdp, profiles, 'login', async () => {
      await page.goto(`${BASE}/login`);
      await until(page, 'login');
    });
    seen.login = await moment(page, 'login');
    await page.getByLabel('Email').fill(MEMBER.email);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.evaluate(() => delete window.__moments.clicked);
    await measured(cdp, profiles, 'signIn', async () => {
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByRole('link', { name: 'Go to Forum' }).first().click({ timeout: 60_000 });
      await until(page, 'article');
    });
    seen.signIn = (await moment(page, 'article')) - (await moment(page, 'clicked'));
  } finally {
    await fresh.close();
  }
  return seen;
}

/** A CPU profile's self time, by function and by file: where the main thread's time went. */
function summarise(profile) {
  const total = profile.endTime - profile.startTime; // microseconds
  const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
  const byFunction = new Map();
  const byFile = new Map();
  for (const node of profile.nodes) {
    const ms = ((node.hitCount ?? 0) / hits) * (total / 1000);
    if (!ms) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? url.replace(BASE, '').replace(/^.*\/node_modules\//, '') : '(native)';
    const fn = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`);
  return { totalMs: total / 1000, functions: top(byFunction, 8), files: top(byFile, 6) };
}

const MEASURES = [
  ['forum', "the forum's first load, signed in (navigation start -> first article with a heading)"],
  ['newPost', "New Post's first open (click -> Title field visible and focused)"],
  ['insights', 'Insights, /admin/insights (navigation start -> every chart drawn)'],
  ['login', "/login's own first frame (navigation start -> Sign In button)"],
  ['signIn', "Sign In on a fresh browser (click -> forum's first article, Go to Forum clicked once offered)"],
];

const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-first-visits-'));
const found = ensureChromium();
if (!found.ok) throw new Error(found.message);
const server = await startBenchServer({ port: PORT, dataDir, adminPassword: ADMIN.password, script: SERVER, distDir: DIST });
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
const loadBefore = loadAverage();
const figures = {};
const profileText = [];
try {
  await makeMember(BASE, MEMBER);
  // The forum's posts, written and approved by the admin through the server (not timed).
  const admin = new Session(BASE);
  await admin.signIn(ADMIN.email, ADMIN.password);
  const created = (
    await admin.push(
      ...Array.from({ length: POSTS }, (_, i) => ({
        id: randomUUID(),
        type: 'create',
        post: {
          title: `First visit post ${i + 1}`,
          content: `Notes from study ${i + 1}, and what we would change. `.repeat(3),
          category: 'Trends',
        },
      })),
    )
  ).results;
  if (created.some((result) => result.status !== 'applied')) throw new Error('the server refused a benchmark post');
  const approved = (await admin.push(...created.map((result) => ({ id: randomUUID(), type: 'approve', postId: result.postId })))).results;
  if (approved.some((result) => result.status !== 'applied')) throw new Error('the server refused to approve a benchmark post');

  for (const rate of RATES) {
    const runs = [];
    for (let index = 0; index < RUNS; index += 1) {
      const seen = await run(browser, rate, undefined);
      runs.push(seen);
      log(`${rate}x run ${index + 1}/${RUNS}: ${MEASURES.map(([key]) => `${key} ${seen[key].toFixed(0)} ms`).join(', ')}`);
    }
    figures[`${rate}x`] = Object.fromEntries(
      MEASURES.map(([key]) => {
        const values = runs.map((seen) => seen[key]);
        return [key, { median: Math.round(median(values)), max: Math.round(Math.max(...values)) }];
      }),
    );
    const profiles = {};
    const profiled = await run(browser, rate, profiles);
    profileText.push(`## ${LABEL}, ${rate}x CPU (one more run, profiler on, not counted)`, '');
    for (const [key, title] of MEASURES) {
      const summary = summarise(profiles[key]);
      profileText.push(
        `### ${title}: ${profiled[key].toFixed(0)} ms with the profiler on (${summary.totalMs.toFixed(0)} ms profiled)`,
        '',
        `- Top functions (self time): ${summary.functions.join('; ')}`,
        `- Top files (self time): ${summary.files.join('; ')}`,
        '',
      );
    }
  }
} finally {
  await browser.close();
  // The folder goes once the server has closed its database (it writes as it stops).
  const stopped = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await stopped;
  rmSync(dataDir, { recursive: true, force: true });
}

const loadAfter = loadAverage();
const results = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
results[LABEL] = {
  date: new Date().toISOString().slice(0, 16),
  load: `${loadBefore} at the start, ${loadAfter} at the end`,
  runs: RUNS,
  figures,
};
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);

const profileFile = 'bench/first-visits-profile.md';
const kept = existsSync(profileFile) ? readFileSync(profileFile, 'utf8') : '';
const others = kept.split(/^(?=## )/m).filter((part) => part.startsWith('## ') && !part.startsWith(`## ${LABEL},`));
await writeFormatted(
  profileFile,
  [
    '# The slow screens, first visit: CPU profiles (bench/first-visits.mjs, issue 64 item 4)',
    '',
    ...others.map((part) => part.trimEnd() + '\n'),
    ...profileText,
  ].join('\n'),
);

const ISSUE = { forum: '2.7 s', newPost: '2.2 s', insights: '2.0 s', login: '—', signIn: '1.8–5.1 s' };
const labels = Object.keys(results);
const header = `| measure | the issue's measure | ${labels.flatMap((label) => RATES.map((rate) => `${label}, ${rate}x: median / max`)).join(' | ')} |`;
const rows = MEASURES.map(
  ([key, title]) =>
    `| ${title} | ${ISSUE[key]} | ${labels
      .flatMap((label) =>
        RATES.map((rate) => {
          const figure = results[label].figures[`${rate}x`]?.[key];
          return figure ? `${figure.median} / ${figure.max} ms` : '—';
        }),
      )
      .join(' | ')} |`,
);
const body = [
  `${os.cpus().length} cores, Node ${process.version}, Debian Chromium, the production server (embedded database) on 127.0.0.1 with ${POSTS} approved posts.`,
  `Each run a fresh browser context at 1280x800 (no HTTP cache, no service worker), ${RUNS} runs per CPU rate; the machine is shared, so the load average is given per label.`,
  '',
  header,
  `|---|---|${labels.flatMap(() => RATES.map(() => '---|')).join('')}`,
  ...rows,
  '',
  ...labels.map((label) => `- ${label}: ${results[label].date} UTC, load average ${results[label].load}.`),
  '- Profiles: bench/first-visits-profile.md.',
].join('\n');
await writeSection('bench/results.md', 'The slow screens, first visit (issue 64, item 4), 2026-12-03', body);
log(body);
