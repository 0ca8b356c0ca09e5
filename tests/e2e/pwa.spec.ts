import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { ADMIN, card, getPost, makePost, MEMBER, openForum, putPosts, signIn, submitNewPost, toast } from './support/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { waitForServiceWorker } from './support/service-worker';

test.use({ serviceWorkers: 'allow' });

/**
 * Makes sure the page's browser says it is offline (navigator.onLine false), as a browser without a
 * network does. Chromium emulates offline (context.setOffline) for navigator.onLine through one
 * override per renderer process: each navigation resets it as the old document's DevTools agent
 * leaves, and sets it again for the new document. The two travel separately, so on a busy machine the
 * reset can land last, and a page that loaded offline (its requests still fail) keeps
 * navigator.onLine true until the next navigation: no Offline badge, through no fault of the app.
 * Setting the same emulation again once the page has loaded changes nothing when it held, and
 * otherwise tells the page it is offline (the badge then follows the offline event).
 */
async function expectBrowserOffline(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // Kept attached: a detaching DevTools session resets the override too.
  await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

test('the service worker controls the page after the first load and says it is ready offline', async ({ page }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await expect(toast(page, 'Ready to work offline')).toBeVisible();
});

test('a page that loaded outside the service worker is taken under its control', async ({ page }) => {
  // A page whose navigation began while the first worker was still installing is skipped by the
  // worker's claim (the browser claims only pages already running); a reload that bypasses the
  // worker (Chromium's hard reload) leaves a page in the same state, on purpose.
  await page.goto('/');
  await waitForServiceWorker(page);
  const cdp = await page.context().newCDPSession(page);
  const loaded = page.waitForEvent('load');
  await cdp.send('Page.reload', { ignoreCache: true });
  await loaded;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await waitForServiceWorker(page);
});

test('offline, every screen still opens with its data, and a deep link opens cold', async ({ page, context }) => {
  await signIn(page, ADMIN);
  await openForum(page);
  await waitForServiceWorker(page);
  await putPosts(page, [
    makePost({ title: 'Read on the train' }),
    makePost({ title: 'Review me offline', status: 'pending', authorEmail: ADMIN }),
  ]);
  await context.setOffline(true);
  for (const [path, text] of [
    ['/', 'Insightful Discussions'],
    ['/about', 'Our Mission'],
    ['/forum', 'Read on the train'],
    ['/profile', 'Review me offline'],
    ['/admin', 'Review me offline'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(text).first()).toBeVisible();
  }
  await expectBrowserOffline(page);
  await expect(page.getByRole('banner').getByText('Offline', { exact: true }).filter({ visible: true })).toBeVisible();

  const cold = await context.newPage();
  await cold.goto('/admin');
  await expect(card(cold, 'Review me offline')).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('banner').getByText('Offline', { exact: true })).toHaveCount(0);
});

test('offline, liking, posting and moderating keep working and nothing says it failed', async ({ page, context }) => {
  await signIn(page, ADMIN);
  await openForum(page);
  await waitForServiceWorker(page);
  const post = makePost({ title: 'Liked offline', likes: 1 });
  await putPosts(page, [post]);
  await context.setOffline(true);
  await page.reload();
  await card(page, 'Liked offline').getByRole('button', { name: /^Like/ }).click();
  await expect(card(page, 'Liked offline')).toContainText('2');
  await expect.poll(async () => (await getPost(page, post.id))?.likes).toBe(2);

  await submitNewPost(page, 'Written in a tunnel', 'No signal, no problem.');
  await expect(toast(page, 'Post Submitted!')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).click();
  await card(page, 'Written in a tunnel').getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Post approved')).toBeVisible();
  await page.getByRole('link', { name: 'Forum', exact: true }).click();
  await expect(card(page, 'Written in a tunnel')).toBeVisible();
  await expect(page.locator('.app-toasts [role="alert"] .toast')).toHaveCount(0);
});

test('after the first like the app asks for durable storage, and the profile shows it', async ({ page }) => {
  await page.addInitScript(() => {
    const storage = navigator.storage;
    const original = storage.persist.bind(storage);
    (window as unknown as { persistCalls: number }).persistCalls = 0;
    storage.persist = () => {
      (window as unknown as { persistCalls: number }).persistCalls += 1;
      return original();
    };
  });
  await signIn(page, MEMBER);
  await openForum(page);
  const calls = () => page.evaluate(() => (window as unknown as { persistCalls: number }).persistCalls);
  expect(await calls()).toBe(0);
  const like = page.getByRole('article').first().getByRole('button', { name: /^Like/ });
  await like.click();
  await expect.poll(calls).toBe(1);
  await like.click();
  await page.getByRole('link', { name: 'Profile' }).click();
  const panel = page.getByRole('region', { name: 'Storage on this device' });
  await expect(panel).toContainText(/Yes: the browser will not clear it|Not yet: the browser may clear it/);
  await expect(panel).toContainText(/\d+(\.\d)? (B|KB|MB|GB)/);
  await expect(panel).toContainText('Holds all 3 posts');
  // In a member's words (issue 40): each fact named plainly, no "Persistence" or "Compatibility copy".
  expect(await panel.locator('dt').allTextContents()).toEqual(
    expect.arrayContaining(['Kept by the browser', 'Space used', 'Copy for older versions of the app']),
  );
  await expect(panel).not.toContainText(/Persistence|Compatibility/);
  expect(await calls()).toBeLessThanOrEqual(1);
});

test('Install appears when the browser offers it, and opens the browser prompt', async ({ page }) => {
  await signIn(page, MEMBER);
  await openForum(page);
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Install' })).toHaveCount(0);
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>;
      userChoice: Promise<unknown>;
    };
    event.prompt = async () => {
      (window as unknown as { prompted: boolean }).prompted = true;
    };
    event.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(event);
  });
  await header.getByRole('button', { name: 'Install' }).click();
  expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  await expect(header.getByRole('button', { name: 'Install' })).toHaveCount(0);
});

test.describe('on iOS Safari', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
  });

  test('Install explains Add to Home Screen', async ({ page }) => {
    await signIn(page, MEMBER);
    await openForum(page);
    await page.getByRole('banner').getByRole('button', { name: 'Install' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Home Screen' });
    await expect(dialog).toContainText('Share');
    await expect(dialog).toContainText('Add to Home Screen');
    // Escape once the dialog has opened (it takes the focus then).
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test('Chromium reports no installability errors', async ({ baseURL }) => {
  const profile = mkdtempSync(join(tmpdir(), 'insight-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(baseURL!);
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toContain('/manifest.webmanifest');
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
