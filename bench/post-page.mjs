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

/** The post page's first-paint snapshot in Cache Storage (src/db/core/forum-snapshot.ts), as `page` reads it. */
export const postSnapshotStored = (page, postId) =>
  page.evaluate(
    async (id) => Boolean(await caches.match(`/__forum-snapshot/posts/${id}`, { cacheName: 'insight-forum-snapshot' })),
    postId,
  );

/** Opens the post's page as a member reading it would, until the app has stored its snapshot (what the next visit paints first). */
export async function readPost(context, base, postId, selector) {
  const page = await context.newPage();
  await page.goto(`${base}/posts/${postId}`);
  await page.locator(selector).first().waitFor();
  const until = Date.now() + 30_000;
  while (!(await postSnapshotStored(page, postId))) {
    if (Date.now() > until) throw new Error(`post ${postId}: no snapshot stored within 30 s`);
    await page.waitForTimeout(100);
  }
  await page.close();
}
