#!/usr/bin/env node
// `npm run bench:forum-way` (after `npm run build`): the JavaScript a new member's browser fetches
// on the way from /login to the forum's first posts (issue 64, item 2), in both modes:
//
//   local-only  the production build served statically (`vite preview`), a sample member;
//   connected   the production server (embedded database) with a member made through Create Account.
//
// Each mode: a fresh browser context at 412x823 with the service worker blocked (it would fetch the
// whole precache), /login, Sign In, Go to Forum, until the first `article` with a heading. Every
// script the browser requested before that moment counts (the page's and its workers'), each by the
// gzip size (level 9) of its built file in dist/. What it fetched after, until no script for 2.5 s,
// is listed apart: it loads after the first posts and is not in the total.
//
// FORUM_WAY_OLDER=10000 measures local-only on a browser an older build left that many posts on
// (localStorage `posts`, written before the app's first script, as the outside probe does):
// the mode "local-older".
//
//   BENCH_PORT=4610 (connected: BENCH_PORT+1)   FORUM_WAY_MODES=local,connected   FORUM_WAY_OLDER=0
//
// Prints a table per mode and writes bench/forum-way-results.json.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { startPreview } from './preview.mjs';
import { makeMember, startBenchServer } from './server-process.mjs';
import { olderBuildPosts } from './probe-page.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4610);
const MODES = (process.env.FORUM_WAY_MODES ?? 'local,connected').split(',');
const OLDER = Number(process.env.FORUM_WAY_OLDER ?? 0);
const ADMIN_PASSWORD = 'bench-admin-quiet-harbor-7419';
const MEMBER = { email: 'forum-way@example.com', password: 'bench-member-quiet-harbor-7419', name: 'Forum Way Bench' };
const SAMPLE = { email: 'jane.doe@example.com', password: 'pass-1234' };
const log = (...parts) => console.log(`[forum-way ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const kb = (bytes) => (bytes / 1024).toFixed(1);

for (const mode of MODES)
  if (mode !== 'local' && mode !== 'connected') throw new Error(`FORUM_WAY_MODES: "${mode}" is neither local nor connected.`);

const gzipOf = (path) => gzipSync(readFileSync(join('dist', path)), { level: 9 }).length;

/** One trip /login → Sign In → Go to Forum → the first article with a heading, on `base`. */
async function trip(browser, base, { email, password }, older = 0) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, serviceWorkers: 'block' });

  /** Each script's path and the wall-clock moment it was requested (the first time). */
  const requested = new Map();
  let lastScriptAt = Date.now();
  context.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (!pathname.endsWith('.js')) return;
    if (!requested.has(pathname)) requested.set(pathname, Date.now());
    lastScriptAt = Date.now();
  });
  await context.addInitScript(() => {
    // The moment (wall clock, as the requests' above) the first article with a heading is in the page.
    const observer = new MutationObserver(() => {
      if (!document.querySelector('#root article :is(h1, h2, h3, h4, h5, h6)')) return;
      observer.disconnect();
      window.__firstPostAt = performance.timeOrigin + performance.now();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  try {
    if (older > 0) {
      // The older build's copy, before the app's first script: from a static page of the same origin, in
      // the same tab (as the probe: bench/outside-probe.mjs).
      await page.goto(`${base}/robots.txt`);
      await page.evaluate((value) => localStorage.setItem('posts', value), JSON.stringify(olderBuildPosts(older)));
    }
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('link', { name: 'Go to Forum' }).first().click({ timeout: 60_000 });
    await page.waitForFunction(() => window.__firstPostAt !== undefined, undefined, { timeout: 60_000 });
    const firstPostAt = await page.evaluate(() => window.__firstPostAt);
    const deadline = Date.now() + 30_000;
    while (Date.now() - lastScriptAt < 2_500 && Date.now() < deadline) await page.waitForTimeout(250);
    const files = [...requested].map(([path, at]) => ({ file: path, gzip: gzipOf(path), beforeFirstPost: at <= firstPostAt }));
    return files;
  } finally {
    await context.close();
  }
}

function report(mode, files) {
  const before = files.filter((file) => file.beforeFirstPost).sort((a, b) => b.gzip - a.gzip);
  const after = files.filter((file) => !file.beforeFirstPost).sort((a, b) => b.gzip - a.gzip);
  const total = before.reduce((sum, file) => sum + file.gzip, 0);
  const later = after.reduce((sum, file) => sum + file.gzip, 0);
  const lines = [
    `### ${mode}: ${kb(total)} KB gzip to the first posts (${before.length} files); ${kb(later)} KB after them (${after.length} files)`,
    '',
    '| file | KB gzip | when |',
    '| --- | --- | --- |',
    ...before.map((file) => `| ${file.file} | ${kb(file.gzip)} | to the first posts |`),
    ...after.map((file) => `| ${file.file} | ${kb(file.gzip)} | after |`),
  ];
  console.log(lines.join('\n'));
  return { total, later, files: [...before, ...after] };
}

const found = ensureChromium();
if (!found.ok) throw new Error(found.message);
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
const results = { date: new Date().toISOString(), loadavg: readFileSync('/proc/loadavg', 'utf8').trim(), modes: {} };
try {
  if (MODES.includes('local')) {
    const base = `http://localhost:${PORT}`;
    const server = await startPreview(PORT, base);
    try {
      results.modes.local = report('local-only', await trip(browser, base, SAMPLE));
      if (OLDER > 0)
        results.modes['local-older'] = report(`local-only, ${OLDER} posts of an older build`, await trip(browser, base, SAMPLE, OLDER));
    } finally {
      server.kill();
    }
  }
  if (MODES.includes('connected')) {
    const port = PORT + 1;
    const base = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-forum-way-'));
    const server = await startBenchServer({ port, dataDir, adminPassword: ADMIN_PASSWORD });
    try {
      await makeMember(base, MEMBER);
      results.modes.connected = report('connected', await trip(browser, base, MEMBER));
    } finally {
      // The data folder goes once the server has closed its database.
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
writeFileSync('bench/forum-way-results.json', `${JSON.stringify(results, null, 2)}\n`);
log(
  Object.entries(results.modes)
    .map(([mode, result]) => `${mode}: ${kb(result.total)} KB to the first posts, ${kb(result.later)} KB after`)
    .join('; '),
  `(load ${results.loadavg})`,
);
