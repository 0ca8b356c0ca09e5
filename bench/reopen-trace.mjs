#!/usr/bin/env node
// A look inside the outside probe's reopen of /forum (issue 64, item 1): the probe's setup
// (bench/outside-probe.mjs: 10,000 older-build posts in localStorage before any script, signed in,
// the first /forum untimed), then, once the service worker controls /forum, REOPENS reopens of
// /forum in the same tab at RATE x CPU, the last one traced (Chromium trace, every thread). Prints
// each reopen's Navigation Timing and the resources it took before the snapshot was painted (through
// the worker or from the memory cache), then the work the traced reopen did before its first frame,
// in counts that hold under load (main-thread busy time, stylesheet decode and parse, the worker's
// fetch events, the style forced by the old page's pagehide); TRACE_TASKS=1 also lists every task of
// 2 ms or more. PROBE_BEFORE=<dist folder> traces another build; TRACE_JSON=<file> keeps the trace.
// A tool for finding what the first frame waits for, not a bench row. Port 4811 (PROBE_PORT).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { olderBuildPosts, pageSettled, serveBuild, watchFirstArticle } from './probe-page.mjs';

const PORT = Number(process.env.PROBE_PORT ?? 4811);
const BASE = `http://127.0.0.1:${PORT}`;
const SERVED = resolve(process.env.PROBE_BEFORE ?? 'dist');
const RATE = Number(process.env.RATE ?? 1);
const REOPENS = Number(process.env.REOPENS ?? 5);
const OUT = process.env.TRACE_JSON;

/** The page's main thread and its navigation start (the traced reopen's). */
function pageStart(events) {
  const start = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame).pop();
  return { t0: start.ts, pid: start.pid, tid: start.tid };
}

/**
 * What the traced reopen did before its first animation frame (the frame the probe times), in
 * work that holds under load: the page's main-thread busy time, the stylesheets decoded and parsed,
 * the fetch events the service worker handled, the style forced by the old page's pagehide handlers,
 * the old page's teardown.
 */
function workSummary(events) {
  const { t0, pid, tid } = pageStart(events);
  const after = events.filter((e) => e.ts >= t0);
  const raf = after.filter((e) => e.name === 'FireAnimationFrame' && e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts)[0];
  const end = raf ? raf.ts : t0;
  const before = after.filter((e) => e.ts < end);
  const ms = (list) => Number((list.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000).toFixed(1));
  const tasks = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === 'RunTask' && e.ts < end && e.ts + e.dur > t0)
    .sort((a, b) => a.ts - b.ts);
  let busy = 0;
  let until = t0;
  for (const e of tasks) {
    const from = Math.max(e.ts, until);
    const to = Math.min(e.ts + e.dur, end);
    if (to > from) {
      busy += to - from;
      until = to;
    }
  }
  const pagehide = before.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'pagehide');
  const inside = (e, outer) => outer.some((p) => e !== p && e.ts >= p.ts && e.ts <= p.ts + (p.dur ?? 0));
  const forced = before.filter((e) => e.name === 'Document::UpdateStyleAndLayout' && inside(e, pagehide));
  const fetches = before.filter((e) => e.name.startsWith('ServiceWorkerGlobalScope::DispatchFetchEvent') && e.args?.url);
  return {
    firstFrameMs: Number(((end - t0) / 1000).toFixed(1)),
    mainThreadBusyMs: Number((busy / 1000).toFixed(1)),
    oldPageDetachMs: ms(before.filter((e) => e.name === 'LocalFrame::DetachImpl')),
    pagehideMs: ms(pagehide),
    pagehideForcedStyleLayoutMs: ms(forced),
    stylesheetDecodeMs: ms(before.filter((e) => e.name === 'TextResourceDecoder::Decode' && (e.args?.data_len ?? 0) > 50_000)),
    stylesheetParseMs: ms(before.filter((e) => e.name === 'ParseAuthorStyleSheet')),
    workerFetchEvents: [...new Set(fetches.map((e) => e.args.url.replace(/^https?:\/\/[^/]+/, '')))],
    styleMs: ms(before.filter((e) => e.name === 'UpdateLayoutTree' && e.pid === pid && e.tid === tid)),
  };
}

/** Every thread's tasks of 2 ms or more up to the first post's frame (TRACE_TASKS=1). */
function printTasks(events, last) {
  const { t0, pid, tid } = pageStart(events);
  const end = t0 + last.article * 1000;
  const rel = (ts) => ((ts - t0) / 1000).toFixed(1);
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  for (const e of events.filter((e) => e.name === 'ResourceSendRequest' && e.ts >= t0 && e.ts <= end)) {
    console.log(`${rel(e.ts)} request ${e.args?.data?.url ?? ''}`.slice(0, 160));
  }
  const byThread = new Map();
  for (const e of events.filter((e) => e.ph === 'X' && e.dur >= 2000 && e.ts + e.dur >= t0 && e.ts <= end)) {
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  for (const [key, list] of byThread) {
    const name = names.get(key) ?? key;
    if (!/CrRendererMain|Worker thread/i.test(name)) continue;
    console.log(`\n== ${name}${key === `${pid}:${tid}` ? ' (the page)' : ''}`);
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const stack = [];
    for (const e of list) {
      while (stack.length > 0 && stack[stack.length - 1] <= e.ts) stack.pop();
      if (stack.length < 6) {
        const data = e.args?.data ?? {};
        const extra = String(data.url ?? data.functionName ?? data.type ?? '').slice(0, 80);
        console.log(`${'  '.repeat(stack.length)}${rel(e.ts)} +${(e.dur / 1000).toFixed(1)} ${e.name} ${extra}`);
      }
      stack.push(e.ts + e.dur);
    }
  }
}

const server = await serveBuild(SERVED, PORT);
const found = ensureChromium();
const profile = mkdtempSync(join(os.tmpdir(), 'reopen-trace-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: found.path,
  args: CHROMIUM_ARGS,
  viewport: { width: 412, height: 823 },
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${BASE}/robots.txt`);
  await page.evaluate((value) => localStorage.setItem('posts', value), JSON.stringify(olderBuildPosts(10_000)));
  await context.addInitScript(watchFirstArticle);
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill('probe.member@example.com');
  await page.getByLabel('Password').fill('probe-pass-4510');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Logged in successfully!' }).waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  const open = async () => {
    await page.goto(`${BASE}/forum`);
    await page.waitForFunction(() => window.__probe?.article > 0, undefined, { timeout: 60_000 });
    const result = await page.evaluate(() => {
      const entry = performance.getEntriesByType('navigation')[0];
      return {
        article: Math.round(window.__probe.article),
        inserted: Math.round(window.__probe.inserted),
        via: window.__probe.via,
        responseStart: Math.round(entry.responseStart),
        responseEnd: Math.round(entry.responseEnd),
        domInteractive: Math.round(entry.domInteractive),
        bytes: entry.decodedBodySize,
        controlled: Boolean(navigator.serviceWorker.controller),
        home: Boolean(document.getElementById('home-prerender')),
        worker: Math.round(entry.workerStart),
        fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
        before: performance
          .getEntriesByType('resource')
          .filter((r) => r.startTime < window.__probe.inserted)
          .map(
            (r) =>
              `${r.name.replace(location.origin, '')} ${r.deliveryType || '-'} sw=${Math.round(r.workerStart)} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)}`,
          ),
      };
    });
    await pageSettled(page);
    return result;
  };
  await open();
  // Timed only once the service worker controls /forum (its first install precaches the build one
  // file after another, and may still be under way after the first /forum on a busy machine).
  await page.evaluate(() => navigator.serviceWorker.ready);
  for (let i = 0; i < 20 && !(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))); i += 1) await open();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  for (let i = 0; i < REOPENS - 1; i += 1) console.log('reopen', JSON.stringify(await open()));
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,blink.user_timing,disabled-by-default-devtools.timeline,loading,v8.execute,toplevel,blink,navigation,ServiceWorker,disabled-by-default-v8.gc,v8',
    transferMode: 'ReportEvents',
  });
  const last = await open();
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  console.log('traced', JSON.stringify(last));
  if (OUT) writeFileSync(OUT, JSON.stringify(events));
  console.log(JSON.stringify(workSummary(events), null, 1));
  if (process.env.TRACE_TASKS) printTasks(events, last);
} finally {
  await context.close();
  server.kill('SIGTERM');
  rmSync(profile, { recursive: true, force: true });
}
