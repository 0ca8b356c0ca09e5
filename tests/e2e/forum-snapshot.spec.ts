import { expect, test, type Page } from '@playwright/test';
import { MEMBER, openForum, signIn } from './support/app';
import { waitForServiceWorker } from './support/service-worker';

// The forum's first page is painted from a snapshot before the JavaScript boots, only for the
// member it was taken for, and handed over to the live list without moving.

const OTHER = 'omar.other@example.com';

// As a member lands on the forum: the app shell from the service worker.
test.use({ serviceWorkers: 'allow' });

/** Records whether (and where) the snapshot was painted on the next page load. */
async function watchSnapshot(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { painted: false, top: -1, html: '' };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      const view = document.getElementById('forum-snapshot');
      if (!view || seen.painted) return;
      seen.painted = true;
      seen.html = view.innerHTML;
      requestAnimationFrame(() => {
        const first = view.querySelector('article');
        if (first && view.isConnected) seen.top = first.getBoundingClientRect().top;
      });
    }).observe(document, { childList: true, subtree: true });
  });
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { __seen: { painted: boolean; top: number; html: string } }).__seen);

const storedSnapshot = (page: Page) =>
  page.evaluate(async () => {
    const response = await caches.match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' });
    return response ? ((await response.json()) as { owner: string; html: string }) : null;
  });

async function takeSnapshot(page: Page): Promise<void> {
  await waitForServiceWorker(page);
  await openForum(page);
  await expect.poll(() => storedSnapshot(page).then((snapshot) => snapshot?.owner), { timeout: 30_000 }).toBe(MEMBER);
}

test("paints the member's first page from the snapshot, then the live list takes its place without moving", async ({ page }) => {
  await signIn(page, MEMBER);
  await takeSnapshot(page);
  const snapshot = await storedSnapshot(page);
  expect(snapshot!.html).toContain('<article');
  await watchSnapshot(page);
  const response = await page.goto('/forum');
  // The service worker put the snapshot in the page itself (painted with no wait on a cache read).
  expect(await response!.text()).toContain('<template id="forum-snapshot-template" data-owner="jane.doe@example.com"');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.locator('#forum-snapshot')).toHaveCount(0);
  await expect(page.locator('#forum-snapshot-template')).toHaveCount(0);
  const painted = await seen(page);
  expect(painted.painted).toBe(true);
  const liveTop = await page
    .getByRole('article')
    .first()
    .evaluate((article) => article.getBoundingClientRect().top);
  if (painted.top >= 0) expect(Math.abs(painted.top - liveTop)).toBeLessThanOrEqual(1);
  await expect(page.locator('html')).not.toHaveClass(/snapshot-on/);
});

test('sign-out removes the snapshot, and the next member never sees it', async ({ page }) => {
  await signIn(page, MEMBER);
  await takeSnapshot(page);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
  await expect.poll(() => storedSnapshot(page)).toBeNull();

  // Signed out: /forum sends to the login page and paints nothing of the old session.
  await watchSnapshot(page);
  await page.goto('/forum');
  await expect(page).toHaveURL('/login');
  expect((await seen(page)).painted).toBe(false);

  await signIn(page, OTHER);
  await page.goto('/forum');
  await expect(page.getByRole('article').first()).toBeVisible();
  expect((await seen(page)).painted).toBe(false);
});

test('a snapshot left by another member (or by a signed-out session) is never painted', async ({ page }) => {
  await signIn(page, MEMBER);
  await takeSnapshot(page);
  // As if the removal at sign-out had been lost: the snapshot stays, another member signs in.
  const snapshot = await storedSnapshot(page);
  await page.evaluate((email) => localStorage.setItem('insightExchangeUser', JSON.stringify({ email, name: 'Omar', role: 'user' })), OTHER);
  const restore = (value: unknown) =>
    page.evaluate(async (json) => {
      const cache = await caches.open('insight-forum-snapshot');
      await cache.put('/__forum-snapshot', new Response(json, { headers: { 'content-type': 'application/json' } }));
    }, JSON.stringify(value));
  await restore(snapshot);
  await watchSnapshot(page);
  await page.goto('/forum');
  await expect(page.getByRole('article').first()).toBeVisible();
  expect((await seen(page)).painted).toBe(false);

  // No session at all: nothing either.
  await restore(snapshot);
  await page.evaluate(() => localStorage.removeItem('insightExchangeUser'));
  await page.goto('/forum');
  await expect(page).toHaveURL('/login');
  expect((await seen(page)).painted).toBe(false);
});
