// Paint timings of a post's page, shared by the browser benchmarks (thread.mjs, markdown.mjs).
// `selector` names what counts as painted (the first reply, the rendered Markdown): the time is
// taken at the frame that first shows it (rAF, then a task, after it is in the DOM).

/** Signs in as the local-only build's admin through the form, on `base`. */
export async function signInAsAdmin(page, base) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill('admin@insightexchange.app');
  await page.getByLabel('Password').fill('benchmark');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${base}/`);
}

/** In the page: sets `window.__painted` to performance.now() at the frame that first shows `selector`. */
export const watchPaint = (selector) => {
  window.__painted = undefined;
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => (window.__painted = performance.now()), 0));
  });
  observer.observe(document, { childList: true, subtree: true });
};

/** In-app navigation, `runs` times: from the click on the post's title on /forum (the click event's time) to the paint. */
export async function inAppNavigation(context, base, postId, selector, runs) {
  const times = [];
  const page = await context.newPage();
  for (let run = 0; run < runs; run += 1) {
    await page.goto(`${base}/forum`);
    const link = page.locator(`a[href="/posts/${postId}"]`).first();
    await link.waitFor();
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 })));
    await page.evaluate(() => {
      window.__clickedAt = undefined;
      document.addEventListener('click', () => (window.__clickedAt = performance.now()), { capture: true, once: true });
    });
    await page.evaluate(watchPaint, selector);
    await link.click();
    await page.waitForFunction(() => window.__painted !== undefined, undefined, { timeout: 60_000, polling: 20 });
    times.push(await page.evaluate(() => window.__painted - window.__clickedAt));
  }
  await page.close();
  return times;
}

/**
 * Full page loads of /posts/:id, `runs` times: from navigation start (performance.timeOrigin) to the
 * paint. `beforeRun` runs before each load (the thread bench removes the post's snapshot with it).
 */
export async function fullLoad(
  context,
  base,
  postId,
  selector,
  runs,
  onFirst = async () => undefined,
  cpuRate = 1,
  beforeRun = async () => undefined,
) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    await beforeRun();
    const page = await context.newPage();
    if (cpuRate !== 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    await page.addInitScript(watchPaint, selector);
    await page.goto(`${base}/posts/${postId}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__painted !== undefined, undefined, { timeout: 60_000, polling: 20 });
    times.push(await page.evaluate(() => window.__painted));
    if (run === 0) await onFirst(page);
    await page.close();
  }
  return times;
}

/** Where the snapshot of the page at `path` is in Cache Storage (src/db/contracts.ts, snapshotUrlFor). */
const snapshotUrl = (path) => (path === '/forum' ? '/__forum-snapshot' : `/__forum-snapshot${path}`);

/** The first-paint snapshot of the page at `path` in Cache Storage (src/db/storage/forum-snapshot.ts), as `page` reads it. */
const snapshotStored = (page, path) =>
  page.evaluate(async (url) => Boolean(await caches.match(url, { cacheName: 'insight-forum-snapshot' })), snapshotUrl(path));

/**
 * Opens the page at `path` as a member reading it would, until `selector` shows and the app has
 * stored its snapshot (what the next visit paints first).
 */
export async function readUntilSnapshot(context, base, path, selector, viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(`${base}${path}`);
  await page.locator(selector).first().waitFor({ timeout: 120_000 });
  const until = Date.now() + 30_000;
  while (!(await snapshotStored(page, path))) {
    if (Date.now() > until) throw new Error(`${path}: no snapshot stored within 30 s`);
    await page.waitForTimeout(100);
  }
  await page.close();
}

/** Opens the post's page until its snapshot is stored (readUntilSnapshot). */
export const readPost = (context, base, postId, selector) => readUntilSnapshot(context, base, `/posts/${postId}`, selector);
