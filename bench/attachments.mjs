#!/usr/bin/env node
// `node bench/attachments.mjs` (after `npm run build`): issue 42's attachment rows, on the production
// server (embedded database) on 127.0.0.1.
// 1. A 12-megapixel photo (4000 × 3000 JPEG, drawn in the page) attached with Attach in New Post on
//    a 4x-throttled phone: from the file handed to the picker (its `change` event) to the photo's
//    small picture painted in the Attached files list (drawn from the resized image while the file
//    is encoded), and to the attached file's own preview (encoded, hashed, kept); each the frame
//    that first showed it (the Element Timing API's renderTime). Five runs.
// 2. Posted on a phone → painted on a tablet: the tablet (an admin) has the forum open; the phone
//    submits a post with a 1600 × 900 chart attached; the admin's device approves it as soon as it
//    holds it (through the API, not timed as UI) and opens the post; from the phone's Submit click to
//    the image painted on the tablet. Both clocks are the machine's (Date.now in each page). Twelve runs, p95,
//    after one run reported on its own: the tablet's first post page, whose code is not yet in its cache.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { makeMember, startBenchServer } from './server-process.mjs';
import { writeSection } from './sections.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4188);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'admin@insightexchange.app', password: 'bench-admin-quiet-harbor-7419' };
const MEMBER = { email: 'photos@example.com', password: 'bench-member-quiet-harbor-7419', name: 'Photo Bench' };
const RESIZE_RUNS = Number(process.env.BENCH_RESIZE_RUNS ?? 5);
const PAINT_RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 12);
const log = (...parts) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values) => sorted(values)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)];

async function signIn(page, { email, password }) {
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.locator('.app-toasts').getByText('Logged in successfully!').waitFor({ timeout: 60_000 });
}

/** A picture drawn in the page as `type` bytes (a photo's gradient and noise, or a bar chart). */
function drawn(page, width, height, type) {
  return page.evaluate(
    async ({ width, height, type }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, '#1d4ed8');
      gradient.addColorStop(1, '#f59e0b');
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      for (let i = 0; i < 400; i += 1) {
        context.fillStyle = `hsl(${(i * 37) % 360} 70% 50% / 0.5)`;
        context.fillRect((i * 97) % width, (i * 61) % height, 40 + (i % 90), 30 + (i % 70));
      }
      return [...new Uint8Array(await (await canvas.convertToBlob({ type, quality: 0.92 })).arrayBuffer())];
    },
    { width, height, type },
  );
}

const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-attachments-'));
const server = await startBenchServer({ port: PORT, dataDir, adminPassword: ADMIN.password });
const found = ensureChromium();
if (!found.ok) throw new Error(found.message);
const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
try {
  await makeMember(BASE, MEMBER);

  // 1. The 12 MP photo, resized and previewed at 4x.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  const page = await phone.newPage();
  await signIn(page, MEMBER);
  await page.goto(`${BASE}/forum`);
  const photo = Buffer.from(await drawn(page, 4000, 3000, 'image/jpeg'));
  const cdp = await phone.newCDPSession(page);
  const resize = [];
  const resizeShown = [];
  for (let run = 0; run < RESIZE_RUNS; run += 1) {
    await page.getByRole('button', { name: 'New Post' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Post' });
    await dialog.getByLabel('Title').waitFor();
    await page.evaluate(() => {
      // Each time from the Element Timing API: the frame that first showed the image on screen
      // (its renderTime), whatever the page does after it. shown: the first picture in the list (the
      // small one drawn while the image is encoded); painted: the attached file's own preview
      // (encoded, named by its SHA-256, kept).
      window.__attach = { start: 0, shown: 0, painted: 0 };
      document.addEventListener('change', () => (window.__attach.start ||= performance.now()), { capture: true, once: true });
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (!window.__attach.start || entry.renderTime < window.__attach.start) continue;
          const time = entry.renderTime || entry.loadTime;
          if (entry.identifier === 'attachment-preparing') window.__attach.shown ||= time;
          if (entry.identifier === 'attachment-thumbnail') {
            window.__attach.painted ||= time;
            window.__attach.shown ||= time;
          }
        }
      });
      observer.observe({ type: 'element', buffered: false });
      window.__attach.stop = () => observer.disconnect();
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await dialog.getByLabel('Files to attach').setInputFiles({ name: `IMG_${run}.jpg`, mimeType: 'image/jpeg', buffer: photo });
    await page.waitForFunction(() => window.__attach.painted > 0, undefined, { timeout: 60_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { start, shown, painted } = await page.evaluate(() => {
      window.__attach.stop();
      const { start, shown, painted } = window.__attach;
      return { start, shown, painted };
    });
    resize.push(painted - start);
    resizeShown.push(shown - start);
    log(
      `12 MP photo ${run + 1}/${RESIZE_RUNS}: ${(shown - start).toFixed(0)} ms to its picture in the list, ${(painted - start).toFixed(0)} ms to the attached file's preview`,
    );
    await dialog.getByRole('button', { name: `Remove IMG_${run}.jpg` }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  // 2. Phone → tablet, the image painted.
  const tabletContext = await browser.newContext({ viewport: { width: 820, height: 1180 }, serviceWorkers: 'block' });
  const tablet = await tabletContext.newPage();
  await signIn(tablet, ADMIN);
  await tablet.goto(`${BASE}/forum`);
  const chart = Buffer.from(await drawn(page, 1600, 900, 'image/png'));
  const paint = [];
  // Run 0 is the tablet's first post page ever opened: its code (the post page's chunks and the
  // Markdown renderer) comes from the server then, not yet from the browser's cache. Reported on its
  // own; the p95 is of the twelve that follow, the tablet "with the post open" as the issue has it.
  let cold;
  for (let run = 0; run <= PAINT_RUNS; run += 1) {
    const title = `Chart ${run} of the paint bench`;
    await page.getByRole('button', { name: 'New Post' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Post' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Content').fill('The chart.');
    await dialog.getByLabel('Files to attach').setInputFiles({ name: `chart-${run}.png`, mimeType: 'image/png', buffer: chart });
    await dialog.locator('.app-attach-item:not(.is-preparing) img').waitFor();
    const clicked = await page.evaluate(() => {
      const at = Date.now();
      document.querySelector('.modal-footer button[type=submit]').click();
      return at;
    });
    // The admin's device approves what reaches it, then opens the post (route change in the app).
    const id = await tablet.evaluate(async (wanted) => {
      for (;;) {
        const answer = await (await fetch('/api/changes?after=0&limit=1000')).json();
        const post = answer.posts.find((candidate) => candidate.title === wanted);
        if (post) return post.id;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }, title);
    await tablet.evaluate(
      (postId) =>
        fetch('/api/ops', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-insight-protocol': '6' },
          body: JSON.stringify({ ops: [{ id: crypto.randomUUID(), type: 'approve', postId }] }),
        }),
      id,
    );
    await tablet.evaluate((postId) => {
      history.pushState({}, '', `/posts/${postId}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, id);
    const painted = await tablet.evaluate(
      () =>
        new Promise((resolve) => {
          const look = () => {
            const img = document.querySelector('.app-attachment-images img');
            if (img?.complete && img.naturalWidth > 0) requestAnimationFrame(() => setTimeout(() => resolve(Date.now()), 0));
            else setTimeout(look, 5);
          };
          look();
        }),
    );
    if (process.env.BENCH_DEBUG === '1')
      log(
        await tablet.evaluate(
          (from) =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => performance.timeOrigin + entry.startTime >= from - 50)
              .map(
                (entry) =>
                  `${entry.name.replace(location.origin, '').slice(0, 60)} +${(performance.timeOrigin + entry.startTime - from).toFixed(0)}→+${(performance.timeOrigin + entry.responseEnd - from).toFixed(0)}`,
              )
              .join('\n    '),
          clicked,
        ),
      );
    if (run === 0) cold = painted - clicked;
    else paint.push(painted - clicked);
    log(`phone → tablet ${run === 0 ? 'first post page opened (cold)' : `${run}/${PAINT_RUNS}`}: ${painted - clicked} ms`);
    await tablet.goto(`${BASE}/forum`);
  }
  const body = [
    `Date: ${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · Node ${process.version} · the production server (embedded database) on 127.0.0.1 · service workers blocked`,
    '',
    '| measure | figure | target |',
    '|---|---|---|',
    `| 12 MP photo (4000 × 3000 JPEG) attached on a 4x-throttled phone: picker's change → the photo, resized, painted in the list (a small picture of the 2,048 × 1,536 image, drawn while that image is encoded), median / worst of ${RESIZE_RUNS} | ${median(resizeShown).toFixed(0)} / ${Math.max(...resizeShown).toFixed(0)} ms | ≤ 1 s |`,
    `| the same → the attached file's preview painted (encoded at 2,048 × 1,536, named by its SHA-256, kept on the device: ready to send), median / worst of ${RESIZE_RUNS} | ${median(resize).toFixed(0)} / ${Math.max(...resize).toFixed(0)} ms | — |`,
    `| posted on a phone (Submit click) → the image painted on a tablet (admin: approves as soon as it holds it, then opens the post in the app), median / p95 of ${PAINT_RUNS} | ${median(paint)} / ${p95(paint)} ms | p95 ≤ 1.5 s |`,
    `| the same, the tablet's first post page ever opened (its code fetched from the server, no service worker), one run before the ${PAINT_RUNS} | ${cold} ms | — |`,
  ].join('\n');
  await writeSection('bench/results.md', 'Attachments: a photo resized on the phone, an image from phone to tablet (issue 42)', body);
  log(body);
} finally {
  await browser.close();
  // Its folder goes once the server has closed its database (removed sooner, its last sync fails and says so).
  const exited = new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve()));
  server.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
