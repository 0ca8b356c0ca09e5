#!/usr/bin/env node
// Lighthouse on `/` alone, exactly as `npm run bench` measures it (bench/run.mjs): the production
// build served by `vite preview`, Lighthouse 12.8 mobile (simulated throttling) on Debian's
// Chromium, cold (a browser profile of its own, storage reset by Lighthouse before every run: no
// service worker, no cache). Prints each run's scores and what cost points, the median of the runs,
// and writes the runs' key audits to bench/lighthouse-home.json.
//
//   node bench/lighthouse-home.mjs          builds first
//   LH_BUILD=0    use the dist/ already built      LH_RUNS=5   more runs (at least 3)
//   LH_PORT=4183  the preview's port               LH_DEBUG_PORT=9335   Chromium's debugging port
//   LH_OUT=file   where the JSON goes
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { CATEGORIES, keyAudits, lighthouseRun, lostPoints, scoresOf } from './lighthouse.mjs';
import { startPreview } from './preview.mjs';

const PORT = Number(process.env.LH_PORT ?? 4183);
const DEBUG_PORT = Number(process.env.LH_DEBUG_PORT ?? 9335);
const RUNS = Math.max(3, Number(process.env.LH_RUNS ?? 3));
const OUT = process.env.LH_OUT ?? 'bench/lighthouse-home.json';
const BASE = `http://localhost:${PORT}`;
const log = (...parts) => console.log(`[lighthouse ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const found = ensureChromium();
if (!found.ok) {
  console.error(found.message);
  process.exit(1);
}
if (process.env.LH_BUILD !== '0') {
  log('Building the production app…');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
const server = await startPreview(PORT, BASE);
const profile = mkdtempSync(join(os.tmpdir(), 'lighthouse-home-'));
const runs = [];
try {
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUG_PORT}`],
    viewport: { width: 1280, height: 900 },
  });
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const lhr = await lighthouseRun(`${BASE}/`, DEBUG_PORT);
      const audits = keyAudits(lhr);
      const scores = scoresOf(lhr);
      const metric = (id) => audits[id]?.displayValue;
      log(
        `run ${run + 1}: ${CATEGORIES.map((c) => scores[c]).join(' / ')} · FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`,
      );
      for (const line of lostPoints(lhr)) log(`  ${line}`);
      runs.push({ scores, audits, loadAverage: os.loadavg()[0] });
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
const medians = {
  scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])),
  metrics: Object.fromEntries(
    [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
      'interactive',
    ].map((id) => [id, median(runs.map((r) => r.audits[id]?.numericValue ?? NaN))]),
  ),
};
writeFileSync(OUT, `${JSON.stringify({ date: new Date().toISOString(), url: `${BASE}/`, count: RUNS, medians, runs }, null, 2)}\n`);
log(`median of ${RUNS}: ${JSON.stringify(medians)}`);
log(`written to ${OUT}`);
