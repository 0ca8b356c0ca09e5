#!/usr/bin/env node
// `node bench/forum-images.mjs` (after `npm run build`): issue 42's third row. /forum with 1,000
// approved posts that each carry an image, beside the same forum without images, in one run, on the
// production server (embedded database) on 127.0.0.1. Each forum is seeded through the API (the admin
// uploads one 1600 × 900 PNG once and writes 1,000 posts naming it, then approves them). A member's
// phone (390 × 844, CPU 4x, service workers blocked) signs in and syncs once; then each run is a full
// page load of /forum (page.goto), measured from navigation start to the first-contentful-paint and
// to the first post card in the DOM, and the DOM's node count once the list has settled, with the
// attachment requests the page made. Five runs each.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, request } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { makeMember, startBenchServer } from './server-process.mjs';
import { writeSection } from './sections.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4189);
const ADMIN = { email: 'admin@insightexchange.app', password: 'bench-admin-quiet-harbor-7419' };
const READER = { email: 'reader@example.com', password: 'bench-reader-quiet-harbor-7419', name: 'Bench Reader' };
const POSTS = 1_000;
const RUNS = 9;
const log = (...parts) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A 1600 × 900 PNG drawn in a page (a bar chart's colours). */
async function chartPng(browser) {
  const page = await browser.newPage();
  const bytes = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(1600, 900);
    const context = canvas.getContext('2d');
    context.fillStyle = '#f8fafc';
    context.fillRect(0, 0, 1600, 900);
    for (let i = 0; i < 12; i += 1) {
      context.fillStyle = `hsl(${i * 30} 60% 45%)`;
      context.fillRect(60 + i * 125, 850 - (i + 3) * 55, 90, (i + 3) * 55);
    }
    return [...new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer())];
  });
  await page.close();
  return Buffer.from(bytes);
}

/** 1,000 approved posts by the admin, each naming the image when `image` is given. */
async function seed(BASE, image) {
  const api = await request.newContext({ baseURL: BASE, extraHTTPHeaders: { 'x-insight-protocol': '6', origin: BASE } });
  await api.post('/api/session', { data: { mode: 'signin', email: ADMIN.email, password: ADMIN.password } });
  let file;
  if (image) {
    const sha256 = (await import('node:crypto')).createHash('sha256').update(image).digest('hex');
    const put = await api.put(`/api/attachments/${sha256}`, {
      data: image,
      headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'panel-quality.png' },
    });
    if (!put.ok()) throw new Error(`upload: ${put.status()} ${await put.text()}`);
    file = { sha256, name: 'panel-quality.png' };
  }
  for (let start = 0; start < POSTS; start += 100) {
    const ops = Array.from({ length: 100 }, (_, i) => ({
      id: randomUUID(),
      type: 'create',
      post: {
        title: `Panel quality, wave ${start + i + 1}`,
        content: 'Attention checks, speeders and straight-liners by source, with the chart.',
        category: 'Quantitative',
        ...(file ? { attachments: [file] } : {}),
      },
    }));
    const created = await (await api.post('/api/ops', { data: { ops } })).json();
    const ids = created.results.map((result) => result.postId);
    if (ids.some((id) => typeof id !== 'number')) throw new Error(`create: ${JSON.stringify(created.results[0])}`);
    const approved = await (
      await api.post('/api/ops', { data: { ops: ids.map((postId) => ({ id: randomUUID(), type: 'approve', postId })) } })
    ).json();
    if (approved.results.some((result) => result.status !== 'applied')) throw new Error(`approve: ${JSON.stringify(approved.results[0])}`);
  }
  await api.dispose();
  await makeMember(BASE, READER);
}

/** A member's phone on the forum at BASE, signed in and synced once; `load` runs one measured full load. */
async function phoneOn(browser, BASE) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(READER.email);
  await page.getByLabel('Password').fill(READER.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.locator('.app-toasts').getByText('Logged in successfully!').waitFor({ timeout: 60_000 });
  await page.goto(`${BASE}/forum`);
  await page.getByRole('status', { name: 'Sync status: Synced' }).waitFor({ timeout: 120_000 });
  const cdp = await context.newCDPSession(page);
  const figures = { fcp: [], card: [], nodes: [], fetched: 0 };
  page.on('request', (sent) => {
    if (sent.url().includes('/api/attachments/')) figures.fetched += 1;
  });
  const load = async () => {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${BASE}/forum`);
    await page.getByRole('article').first().waitFor({ timeout: 60_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.getByRole('status', { name: 'Sync status: Synced' }).waitFor({ timeout: 60_000 });
    const run = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      card: performance.getEntriesByName('insight:first-posts')[0]?.startTime ?? NaN,
      nodes: document.getElementsByTagName('*').length,
    }));
    figures.fcp.push(run.fcp);
    figures.card.push(run.card);
    figures.nodes.push(run.nodes);
  };
  const result = () => ({ fcp: median(figures.fcp), card: median(figures.card), nodes: median(figures.nodes), fetched: figures.fetched });
  return { load, result, close: () => context.close() };
}

const found = ensureChromium();
if (!found.ok) throw new Error(found.message);
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
const results = {};
const FORUMS = [
  ['without images', false],
  ['each with an image', true],
];
try {
  const image = await chartPng(browser);
  for (const [label, withImages] of FORUMS) {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-forum-images-'));
    const base = `http://127.0.0.1:${PORT}`;
    const child = await startBenchServer({ port: PORT, dataDir, adminPassword: ADMIN.password });
    try {
      await seed(base, withImages ? image : undefined);
      const phone = await phoneOn(browser, base);
      for (let run = 0; run < RUNS; run += 1) await phone.load();
      results[label] = phone.result();
      log(label, results[label]);
      await phone.close();
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
const row = (label) => {
  const r = results[label];
  return `| ${POSTS.toLocaleString('en')} approved posts ${label} | ${r.fcp.toFixed(0)} ms | ${Number.isNaN(r.card) ? 'n/a' : `${r.card.toFixed(0)} ms`} | ${r.nodes} | ${r.fetched} |`;
};
const body = [
  `Date: ${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · Node ${process.version} · the production server (embedded database) on 127.0.0.1 · a synced phone (390 × 844), CPU 4x, service workers blocked · medians of ${RUNS} full loads of /forum`,
  '',
  '| forum | navigation → first-contentful-paint | navigation → first post card | DOM nodes after load | attachment requests (all runs) |',
  '|---|---|---|---|---|',
  row('without images'),
  row('each with an image'),
].join('\n');
await writeSection('bench/results.md', '/forum with 1,000 posts that carry images (issue 42)', body);
log(body);
