// Categories the admins shape (issue 61, item 2), across devices: a category renamed on the tablet
// (the admin's Categories tab) shows its new name on the phone live, in the forum's Category select
// and on the cards of its posts, without a reload.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, newDevice, signIn, waitSynced, passwordOf } from './support/devices';

const spec = serverForSpec(syncPort(40));

test('a category renamed on the tablet shows its new name on the phone live', async ({ browser }) => {
  const phone = await newDevice(browser, spec.server, PHONE);
  const tablet = await newDevice(browser, spec.server, TABLET);
  await signIn(tablet.page, 'admin@insightexchange.app', ADMIN_PASSWORD);
  await tablet.page.goto('/admin?tab=categories');
  await expect(tablet.page.getByRole('heading', { name: 'Categories', level: 2 })).toBeVisible();
  await waitSynced(tablet.page);

  await signIn(phone.page, 'jane.doe@example.com', passwordOf('jane.doe@example.com'));
  await phone.page.goto('/forum');
  await waitSynced(phone.page);
  const select = phone.page.getByLabel('Category', { exact: true });
  await expect(select.locator('option', { hasText: 'Trends' })).toHaveCount(1);

  await tablet.page.getByRole('button', { name: 'Edit Trends' }).click();
  const dialog = tablet.page.getByRole('dialog', { name: 'Edit category' });
  await dialog.getByLabel('Name').fill('Market trends');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(tablet.page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Category saved' })).toBeVisible();
  // The tablet's own list shows it once the server has it and the tablet has pulled it.
  await expect(tablet.page.getByRole('heading', { name: 'Market trends' })).toBeVisible();

  // The phone stayed on the forum: the live stream told it to pull.
  await expect(select.locator('option', { hasText: 'Market trends' })).toHaveCount(1);
  await expect(select.locator('option', { hasText: /^Trends$/ })).toHaveCount(0);
  await phone.context.close();
  await tablet.context.close();
});
