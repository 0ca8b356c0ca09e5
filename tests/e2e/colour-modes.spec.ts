// Dark mode (issue 23): System follows the device's setting, live; Profile's Theme applies at
// once, in every tab, and survives a reload with no flash of the light theme (the head's boot
// script draws the first paint in it); the browser's theme colour and the manifest follow.
import { expect, test, type Page } from '@playwright/test';
import { THEME_COLORS } from '../../src/shared/theme';
import { ADMIN, MEMBER, openForum, signIn, storeSession } from './support/app';

const mode = (page: Page) => page.locator('html').getAttribute('data-bs-theme');
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const themeColor = (page: Page) => page.locator('meta[name="theme-color"]').getAttribute('content');
const themeRadio = (page: Page, name: string) => page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name });
/**
 * Presses one of the segmented buttons (the radio's label; the radio itself is drawn by it), once
 * the control holds the theme: until then its radios are disabled and a press does nothing.
 */
async function chooseTheme(page: Page, name: string): Promise<void> {
  await expect(themeRadio(page, name)).toBeEnabled();
  await page.getByRole('group', { name: 'Theme' }).getByText(name, { exact: true }).click();
}

const DARK_BG = 'rgb(15, 18, 34)';
const LIGHT_BG = 'rgb(246, 247, 251)';

/** Records, in the page, how the first frame is drawn: the first requestAnimationFrame runs right before the first paint. */
async function recordFirstPaint(page: Page) {
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      const root = document.documentElement;
      (window as unknown as { firstPaint: unknown }).firstPaint = {
        theme: root.getAttribute('data-bs-theme'),
        background: getComputedStyle(root).getPropertyValue('--bs-body-bg').trim(),
        themeColor: document.querySelector('meta[name="theme-color"]')?.getAttribute('content'),
      };
    });
  });
}
const firstPaint = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { firstPaint?: unknown }).firstPaint).then((handle) => handle.jsonValue());

test.describe('System follows the device', () => {
  test('dark when the device prefers dark, light when it prefers light, and live as it changes', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect.poll(() => mode(page)).toBe('dark');
    expect(await pageBackground(page)).toBe(DARK_BG);
    expect(await themeColor(page)).toBe(THEME_COLORS.dark.theme);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest-dark.webmanifest');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => mode(page)).toBe('light');
    expect(await pageBackground(page)).toBe(LIGHT_BG);
    expect(await themeColor(page)).toBe(THEME_COLORS.light.theme);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');

    await storeSession(page, MEMBER);
    await page.goto('/profile');
    await expect(themeRadio(page, 'System')).toBeChecked();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => mode(page)).toBe('dark');
  });
});

test.describe('the Theme on Profile', () => {
  test.use({ colorScheme: 'light' });

  test('applies at once, in a second tab live, and on reload from the first paint', async ({ page, context }) => {
    await storeSession(page, MEMBER);
    await page.goto('/profile');
    const other = await context.newPage();
    await other.goto('/forum');
    await expect(other.getByRole('article').first()).toBeVisible();
    expect(await mode(other)).toBe('light');

    await chooseTheme(page, 'Dark');
    await expect.poll(() => mode(page)).toBe('dark');
    expect(await pageBackground(page)).toBe(DARK_BG);
    expect(await themeColor(page)).toBe(THEME_COLORS.dark.theme);
    await expect.poll(() => mode(other)).toBe('dark');
    expect(await themeColor(other)).toBe(THEME_COLORS.dark.theme);

    // A reload draws its very first frame dark, on Profile and on the forum (whose first paint can be its snapshot).
    for (const target of [page, other]) {
      await recordFirstPaint(target);
      await target.reload();
      expect(await firstPaint(target)).toEqual({ theme: 'dark', background: '#0f1222', themeColor: THEME_COLORS.dark.theme });
    }
    await expect(themeRadio(page, 'Dark')).toBeChecked();

    // Light while the device prefers dark: the member's choice wins.
    await page.emulateMedia({ colorScheme: 'dark' });
    await chooseTheme(page, 'Light');
    await expect.poll(() => mode(page)).toBe('light');
    await expect.poll(() => mode(other)).toBe('light');
    await page.reload();
    expect(await firstPaint(page)).toEqual({ theme: 'light', background: '#f6f7fb', themeColor: THEME_COLORS.light.theme });
  });

  test('signing out goes back to the device setting; signing in brings the member theme back', async ({ page }) => {
    await storeSession(page, MEMBER);
    await page.goto('/profile');
    await chooseTheme(page, 'Dark');
    await expect.poll(() => mode(page)).toBe('dark');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/login');
    await expect.poll(() => mode(page)).toBe('light');
    await page.reload();
    await expect.poll(() => mode(page)).toBe('light');
    await signIn(page, MEMBER);
    await openForum(page);
    await expect.poll(() => mode(page)).toBe('dark');
  });
});

test.describe('the forum snapshot (painted before the app boots)', () => {
  test.use({ serviceWorkers: 'allow', colorScheme: 'light' });

  test('is painted dark when the member chose Dark: its cards on the dark surface', async ({ page }) => {
    await storeSession(page, MEMBER);
    await page.goto('/profile');
    await chooseTheme(page, 'Dark');
    await expect.poll(() => mode(page)).toBe('dark');
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
    await openForum(page);
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const response = await caches.match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' });
            return response ? ((await response.json()) as { owner: string }).owner : null;
          }),
        { timeout: 30_000 },
      )
      .toBe(MEMBER);
    await expect.poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === 'insight-snapshot')).toBe(true);
    // How the snapshot's first frame is drawn, read right before it is painted.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        const view = document.getElementById('forum-snapshot');
        if (!view) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          const card = view.querySelector('article');
          (window as unknown as { snapshotPaint: unknown }).snapshotPaint = {
            theme: document.documentElement.getAttribute('data-bs-theme'),
            card: card ? getComputedStyle(card).backgroundColor : null,
            app: Boolean(document.querySelector('#root > *')),
          };
        });
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/forum');
    const painted = await page
      .waitForFunction(() => (window as unknown as { snapshotPaint?: unknown }).snapshotPaint)
      .then((handle) => handle.jsonValue());
    expect(painted).toEqual({ theme: 'dark', card: 'rgb(24, 28, 48)', app: false });
  });
});

test('the insights charts draw again in the new colours when the mode changes', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await storeSession(page, ADMIN);
  await openForum(page);
  await page.goto('/admin/insights');
  const canvas = page.locator('.app-chart-canvas canvas').first();
  await expect(canvas).toBeVisible();
  const drawn = await canvas.elementHandle();
  // The axes' colour is the text colour of the mode, read when drawing.
  const axisInk = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bs-body-color').trim());
  const lightInk = await axisInk();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => mode(page)).toBe('dark');
  await expect.poll(() => drawn!.evaluate((element) => element.isConnected)).toBe(false);
  await expect(canvas).toBeVisible();
  expect(await axisInk()).not.toBe(lightInk);
});
