// Browser devices for the benchmarks (bench/sync.mjs, bench/server/ui-sync.mjs): a fresh context on
// a server, the sign-in form filled in, and what the device's IndexedDB holds (posts, first sync done).

/** A fresh device (its own IndexedDB and cookies) on `baseURL`, service workers blocked. */
export async function newDevice(browser, baseURL) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  return { context, page: await context.newPage() };
}

/** Opens /login and fills the form; the caller presses Sign In (so it can time from the press). */
export async function fillSignIn(page, email, password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  return page.getByRole('button', { name: 'Sign In', exact: true });
}

/** How many posts the device stores and whether its first full sync was recorded. */
export function storedState(page) {
  return page
    .evaluate(async () => {
      const db = await new Promise((done, fail) => {
        const open = indexedDB.open('insight-exchange');
        open.onsuccess = () => done(open.result);
        open.onerror = () => fail(open.error);
      });
      if (!db.objectStoreNames.contains('meta')) {
        db.close();
        return { count: 0, synced: false };
      }
      const tx = db.transaction(['posts', 'meta']);
      const [count, synced] = await Promise.all([
        new Promise((done) => (tx.objectStore('posts').count().onsuccess = (event) => done(event.target.result))),
        new Promise((done) => (tx.objectStore('meta').get('sync:last-sync-at').onsuccess = (event) => done(event.target.result))),
      ]);
      db.close();
      return { count, synced: synced !== undefined };
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
