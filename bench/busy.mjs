#!/usr/bin/env node
// `npm run bench:busy`: responsiveness while an import runs (issue 24's row "INP p98 of likes and
// typing"), on the production build served as a static site (local-only mode), Debian's Chromium,
// 1x CPU. Each run is a fresh browser profile: the admin signs in and imports a 1,000-post backup
// (so the forum has posts), opens /forum in a second window (`noopener`: a tab of its own, as a
// person would open it), waits for it to settle, then starts the import of BENCH_BUSY_POSTS
// (100,000) posts on /admin in the first window. While it runs, the forum window likes the first
// post and types words into the search box (bench/interactions.mjs) until "Import complete.".
// The same loop on the settled forum with no import (20 rounds) is the baseline. Written to
// bench/results.md, section "Responsiveness while an import runs". The first sync's row is
// bench/server/ui-sync.mjs's (npm run bench:server).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { backupJson } from './generate.mjs';
import { interactUntil, interactionFigures, watchInteractions } from './interactions.mjs';
import { signInAsAdmin } from './post-page.mjs';
import { startPreview } from './preview.mjs';
import { writeSection } from './sections.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4186);
const BASE = `http://localhost:${PORT}`;
const POSTS = Number(process.env.BENCH_BUSY_POSTS ?? 100_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const BASELINE_ROUNDS = 20;
const WORK = join(process.cwd(), 'bench', '.work');

const log = (...parts) => console.log(`[bench:busy ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const load = () => os.loadavg()[0].toFixed(1);

async function importFile(admin, file) {
  await admin.goto(`${BASE}/admin`);
  await admin.getByRole('heading', { name: 'Pending Posts' }).waitFor();
  await admin.getByLabel('Backup file').setInputFiles(file);
  await admin.getByRole('button', { name: 'Import posts' }).click();
  return admin.getByText('Import complete.').waitFor({ timeout: 20 * 60_000 });
}

/** The forum in a window of its own, settled, with its interactions recorded from now on. */
async function forumWindow(context, admin) {
  const [forum] = await Promise.all([
    context.waitForEvent('page'),
    admin.evaluate(() => window.open('/forum', '_blank', 'noopener,popup,width=1000,height=900')),
  ]);
  await forum.getByRole('article').first().waitFor();
  await forum.waitForLoadState('load');
  await watchInteractions(forum);
  return forum;
}

async function run(browser, small, large) {
  const profile = mkdtempSync(join(WORK, 'busy-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const admin = context.pages()[0] ?? (await context.newPage());
    await signInAsAdmin(admin, BASE);
    await importFile(admin, small);
    const forum = await forumWindow(context, admin);
    let rounds = 0;
    const idle = await interactionFigures(forum, await interactUntil(forum, () => rounds++ >= BASELINE_ROUNDS));
    await watchInteractions(forum);
    let done = false;
    const started = Date.now();
    const imported = importFile(admin, large).then(() => {
      done = true;
      return Date.now() - started;
    });
    // If the interactions fail first, the context closes under the import: report their error, not its.
    imported.catch(() => undefined);
    const performed = await interactUntil(forum, () => done);
    const took = await imported;
    return { idle, busy: await interactionFigures(forum, performed), took, load: load() };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const ms = (value) => `${Math.round(value)} ms`;

async function main() {
  const found = ensureChromium();
  if (!found.ok) throw new Error(found.message);
  mkdirSync(WORK, { recursive: true });
  const small = join(WORK, 'busy-1000.json');
  const large = join(WORK, `busy-${POSTS}.json`);
  writeFileSync(small, backupJson(1_000));
  writeFileSync(large, backupJson(POSTS));
  const preview = await startPreview(PORT, BASE);
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const result = await run(found.path, small, large);
      runs.push(result);
      log(
        `run ${i + 1}: import ${(result.took / 1000).toFixed(1)} s; during it INP p98 ${ms(result.busy.all.p98)} (likes ${ms(result.busy.like.p98)}, keys ${ms(result.busy.typing.p98)}; ${result.busy.all.count} interactions, worst ${ms(result.busy.all.max)}); idle p98 ${ms(result.idle.all.p98)} (load ${result.load})`,
      );
    }
  } finally {
    preview.kill();
    rmSync(small, { force: true });
    rmSync(large, { force: true });
  }
  const version = execFileSync(found.path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    .trim()
    .split(' built')[0];
  const row = (label, pick) => `| ${label} | ${runs.map((r) => pick(r)).join(' | ')} |`;
  await writeSection(
    process.env.BENCH_OUT ?? 'bench/results.md',
    'Responsiveness while an import runs',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:busy\` (bench/busy.mjs): the production build,
local-only, ${version}, 1x CPU, 1280×900. The admin imports ${POSTS.toLocaleString('en-US')} posts on /admin; in a
second window (a tab of its own) /forum, settled, likes the first post and types words into the search box,
50 ms between keys (bench/interactions.mjs), until "Import complete.". An interaction's figure is its Event
Timing duration (input delay, handlers, the next frame presented: what INP counts); those under 16 ms leave
no entry and count as 16 ms. Idle: the same loop, 20 rounds, on the same settled forum before the import.
Target: INP p98 of likes and typing ≤ 100 ms. One column per run. The import's own time here is with the
other window in use; alone, it is the import row of the sections above.

| measure | ${runs.map((_, i) => `run ${i + 1}`).join(' | ')} |
| --- | ${runs.map(() => '---').join(' | ')} |
${row('INP p98 of likes and typing during the import', (r) => `${ms(r.busy.all.p98)} (${r.busy.all.count} interactions)`)}
${row('… of the likes / of the keys', (r) => `${ms(r.busy.like.p98)} / ${ms(r.busy.typing.p98)}`)}
${row('worst interaction during the import', (r) => ms(r.busy.all.max))}
${row('the same loop with no import: p98 / worst', (r) => `${ms(r.idle.all.p98)} / ${ms(r.idle.all.max)}`)}
${row('the import, click → "Import complete." (with the other window busy)', (r) => `${(r.took / 1000).toFixed(1)} s`)}
${row('machine load average (1 min) at the end', (r) => r.load)}
`,
  );
}

await main();
