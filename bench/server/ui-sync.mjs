// A new device's first sync through the real UI in headless Chromium, against a running server that
// already holds the seeded posts: from pressing Sign In to the first 20 posts painted on /forum (the
// member taps Forum as soon as the home page shows) and to the whole sync, with the page's JS heap.
// Then a second new device does the same while its member likes and types on /forum until the
// sync is done (bench/interactions.mjs): the responsiveness while a first sync runs.
import { writeFileSync } from 'node:fs';
import { fillSignIn, newDiskDevice, waitForFirstSync } from '../devices.mjs';
import { interactUntil, interactionFigures, watchInteractions } from '../interactions.mjs';
import { BENCH_PASSWORD, DEADLINE, rssMb, Session } from './harness.mjs';

/** Resident memory of every Chromium process (browser, renderer, GPU, utility), summed, in MB. */
async function chromiumRss(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  return processInfo.reduce((sum, { id }) => sum + (id ? rssMb(id) : 0), 0);
}

/** Signs a new member in on a fresh device of `server` and waits until `expected` posts are stored. */
export async function uiFirstSync(server, expected) {
  // Each device is its own browser with a profile on disk, as a member's is (newDiskDevice).
  const { context, page } = await newDiskDevice(server.url);
  try {
    // The first frame after /forum shows 20 posts, as wall-clock time (the benchmark's clock).
    await page.addInitScript(() => {
      const watch = () => {
        const shown = location.pathname === '/forum' ? document.querySelectorAll('article').length : 0;
        if (shown > 0 && window.paintedFirst === undefined)
          requestAnimationFrame(() => setTimeout(() => (window.paintedFirst = Date.now())));
        if (shown >= 20) requestAnimationFrame(() => setTimeout(() => (window.painted20 = Date.now())));
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heapMb = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'JSHeapUsedSize').value / 2 ** 20;
    await new Session(server.url).signIn('ui-first-sync@bench.example'); // Sign In never makes an account
    const signIn = await fillSignIn(page, 'ui-first-sync@bench.example', BENCH_PASSWORD);
    // BENCH_SYNC_PROFILE=<file>: a CPU profile of the page from Sign In to the whole sync (slows it down).
    const profileTo = process.env.BENCH_SYNC_PROFILE;
    if (profileTo) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    const started = Date.now();
    await signIn.click();
    await page.waitForURL(`${server.url}/`);
    // Where the time to the first 20 goes: the sign-in's answer (the server's scrypt check), then the forum.
    const signedIn = Date.now() - started;
    await page.getByRole('link', { name: 'Forum', exact: true }).first().click();
    const forumClicked = Date.now() - started;
    let heapPeak = 0;
    let serverPeak = 0;
    await waitForFirstSync(page, expected, {
      limitMs: DEADLINE - Date.now(),
      onPoll: async () => {
        heapPeak = Math.max(heapPeak, await heapMb());
        serverPeak = Math.max(serverPeak, rssMb(server.pid));
      },
    });
    const whole = Date.now() - started;
    if (profileTo) writeFileSync(profileTo, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const painted =
      (await page.waitForFunction(() => window.painted20, undefined, { timeout: 60_000 }).then((handle) => handle.jsonValue())) - started;
    const paintedFirst = (await page.evaluate(() => window.paintedFirst)) - started;
    console.log(
      `[bench:ui-sync] Sign In → home ${signedIn} ms, Forum clicked ${forumClicked} ms, first post painted ${paintedFirst} ms, 20 painted ${painted} ms, everything ${whole} ms`,
    );
    const measured = {
      painted,
      signedIn,
      forumClicked,
      paintedFirst,
      whole,
      heapPeak: Math.max(heapPeak, await heapMb()),
      chromiumRss: await chromiumRss(context.browser()),
      serverPeak,
    };
    await context.close();
    return { ...measured, ...(await busyFirstSync(server, expected)) };
  } finally {
    await context.close();
  }
}

/** A second new device's first sync with its member liking and typing on /forum from the first post to the end. */
async function busyFirstSync(server, expected) {
  const { context, page } = await newDiskDevice(server.url);
  try {
    await new Session(server.url).signIn('ui-busy-sync@bench.example');
    const signIn = await fillSignIn(page, 'ui-busy-sync@bench.example', BENCH_PASSWORD);
    const started = Date.now();
    await signIn.click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('link', { name: 'Forum', exact: true }).first().click();
    await page.locator('article .app-like').first().waitFor();
    await watchInteractions(page);
    let done = false;
    const synced = waitForFirstSync(page, expected, { limitMs: DEADLINE - Date.now() }).then(() => {
      done = true;
      return Date.now() - started;
    });
    const performed = await interactUntil(page, () => done);
    return { busyWhole: await synced, busy: await interactionFigures(page, performed) };
  } finally {
    await context.close();
  }
}
