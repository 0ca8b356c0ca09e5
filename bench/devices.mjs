// Browser devices for the benchmarks (bench/sync.mjs, bench/server/ui-sync.mjs): a fresh context on
// a server, the sign-in form filled in, and what the device's IndexedDB holds (posts, first sync done).

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';

/** A fresh device (its own IndexedDB and cookies) on `baseURL`, service workers blocked. */
export async function newDevice(browser, baseURL) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  return { context, page: await context.newPage() };
}

/**
 * A fresh device as a member has one: its own Chromium profile on disk, service workers blocked.
 * `newDevice`'s contexts are off the record, and there Chromium keeps IndexedDB in memory, where
 * each write slows as the database grows (a first sync of 100,000 posts took 95 s there against
 * 16–19 s on disk; bench/results.md, issue 24). Closing the context ends its browser.
 */
export async function newDiskDevice(baseURL) {
  const found = ensureChromium();
  if (!found.ok) throw new Error(found.message);
  const profile = mkdtempSync(join(os.tmpdir(), 'ie-bench-device-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  // The profile goes once the browser has ended (closing a persistent context ends its browser).
  const close = context.close.bind(context);
  context.close = async (options) => {
    await close(options);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  };
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

/** Opens /login and fills the form; the caller presses Sign In (so it can time from the press). */
export async function fillSignIn(page, email, password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  return page.getByRole('button', { name: 'Sign In', exact: true });
}

/**
 * Whether the device's first full sync was recorded and, once it was, how many posts it stores.
 * The posts are counted only then: a count walks every row, and one every poll would stand
 * between the sync's own transactions (0 is reported until then).
 */
export function storedState(page) {
  return page
    .evaluate(async () => {
      const db = await new Promise((done, fail) => {
        const open = indexedDB.open('insight-exchange');
        open.onsuccess = () => done(open.result);
        open.onerror = () => fail(open.error);
      });
      const read = (store, request) =>
        new Promise((done, fail) => {
          const asked = request(db.transaction(store).objectStore(store));
          asked.onsuccess = () => done(asked.result);
          asked.onerror = () => fail(asked.error);
        });
      try {
        if (!db.objectStoreNames.contains('meta')) return { count: 0, synced: false };
        const synced = (await read('meta', (store) => store.get('sync:last-sync-at'))) !== undefined;
        return { count: synced ? await read('posts', (store) => store.count()) : 0, synced };
      } finally {
        db.close();
      }
    })
    .catch(() => ({ count: 0, synced: false }));
}

/**
 * Waits until the device stores at least `expected` posts and has recorded its first full sync,
 * looking every 200 ms (a tight loop of IndexedDB reads would slow the sync it measures); `onPoll`
 * runs at each look. Throws after `limitMs`.
 */
export async function waitForFirstSync(page, expected, { limitMs = 10 * 60_000, onPoll = async () => {} } = {}) {
  const started = Date.now();
  for (let state = await storedState(page); state.count < expected || !state.synced; state = await storedState(page)) {
    if (Date.now() - started > limitMs) throw new Error(`the first sync did not finish: ${JSON.stringify(state)}`);
    await onPoll();
    await page.waitForTimeout(200);
  }
}
