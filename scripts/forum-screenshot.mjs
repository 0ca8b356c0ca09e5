// One screenshot of the forum as a signed-in member sees it (sample posts, light theme), for the
// README's picture and the manifest's screenshots. Needs the production build served at BASE_URL
// (default http://localhost:4173: npm start, or vite preview).
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

export const BASE = process.env.BASE_URL ?? 'http://localhost:4173';

export const launchBrowser = () => chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });

/** Signs in as a sample member in a fresh context of `viewport` and writes the forum's first screen to `file`. */
export async function shootForum(browser, viewport, file) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, serviceWorkers: 'block', colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill('jane.doe@example.com');
  await page.getByLabel('Password').fill('screenshot');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${BASE}/`);
  await page.goto(`${BASE}/forum`);
  await page.getByRole('article').nth(2).waitFor();
  await page
    .locator('.app-toasts .toast')
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.screenshot({ path: file });
  await context.close();
}
