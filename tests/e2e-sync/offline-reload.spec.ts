// A synced device reads the forum offline after a reload: the service worker serves the app shell
// and IndexedDB holds what the server sent.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { card, newDevice, signIn, storedRows, syncStatus, waitSynced, passwordOf } from './support/devices';

const spec = serverForSpec(syncPort(8));
const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

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
  await expect(card(page, SAMPLE)).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline');

  // What waits shows always (issue 40): a like, a view and a reply made offline, then another reload.
  await card(page, SAMPLE).getByRole('button', { name: /^Like/ }).click();
  await card(page, SAMPLE).getByRole('link', { name: SAMPLE }).click();
  await page.getByRole('textbox', { name: 'Your reply' }).fill('Written on the train');
  await page.getByRole('button', { name: 'Post Reply' }).click();
  const mine = page.getByRole('list', { name: 'Replies' }).getByRole('listitem').filter({ hasText: 'Written on the train' });
  await expect(mine).toContainText('Not sent yet');
  // The status counts what waits: the like, the view and the reply, and the read position when the
  // replies were in view for a beat (READ_COALESCE_MS) before the reply was sent.
  const waiting = async () => {
    const types = (await storedRows<{ op: { type: string } }>(page, 'outbox')).map((row) => row.op.type);
    const shown = await syncStatus(page).getAttribute('aria-label');
    return {
      counted: shown === `Sync status: Offline, ${types.length} changes waiting`,
      types: types.filter((type) => type !== 'readPost').sort(),
    };
  };
  await expect.poll(waiting).toEqual({ counted: true, types: ['like', 'reply', 'view'] });
  await page.reload();
  await expect(mine).toContainText('Not sent yet');
  await expect.poll(waiting).toEqual({ counted: true, types: ['like', 'reply', 'view'] });
  // The phone's short form, with the same count.
  const count = (await storedRows(page, 'outbox')).length;
  await expect(syncStatus(page).getByText(`Offline · ${count}`, { exact: true })).toBeVisible();
  // Back online: sent, and the mark goes.
  await context.setOffline(false);
  await waitSynced(page);
  await expect(mine).toBeVisible();
  await expect(mine).not.toContainText('Not sent yet');
  await context.close();
});
