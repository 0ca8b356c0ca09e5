import { expect, type Page } from '@playwright/test';

/** Waits until a service worker controls the page (the first visit installs and claims it). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
}
