// A synced device reads the forum offline after a reload: the service worker serves the app shell
// and IndexedDB holds what the server sent.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { card, newDevice, signIn, syncStatus, waitSynced, passwordOf } from './support/devices';

const spec = serverForSpec(syncPort(8));

test('a synced device reads the forum offline after a reload', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server, undefined, 'allow');
  await signIn(page, 'reader@example.com', passwordOf('reader@example.com'));
  await page.goto('/forum');
  await waitSynced(page);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
  // Every chunk the forum needs is precached once the worker is active.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), { timeout: 30_000 })
    .toBe('activated');

  await context.setOffline(true);
  await page.reload();
  await expect(card(page, 'How are you validating AI-generated survey insights before they reach clients?')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline');
  await context.close();
});
