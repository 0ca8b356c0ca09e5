// Phone to tablet and back, live: a member's post reaches the admin's queue without a reload, and
// the approval comes back to the phone the same way.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, newDevice, signIn, submitNewPost, syncStatus, waitSynced, passwordOf } from './support/devices';

const spec = serverForSpec(syncPort(0));

test('a post on the phone reaches the tablet’s queue live, and the approval comes back live', async ({ browser }) => {
  const phone = await newDevice(browser, spec.server, PHONE);
  const tablet = await newDevice(browser, spec.server, TABLET);
  await signIn(tablet.page, 'admin@insightexchange.app', ADMIN_PASSWORD);
  await tablet.page.goto('/admin');
  await expect(tablet.page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
  await waitSynced(tablet.page);

  await signIn(phone.page, 'jane.doe@example.com', passwordOf('jane.doe@example.com'));
  await phone.page.goto('/profile');
  await waitSynced(phone.page);
  // The sample posts come from the server, once.
  await phone.page.goto('/forum');
  await expect(phone.page.getByRole('article')).toHaveCount(3);
  await submitNewPost(phone.page, 'Panel attrition in longitudinal studies', 'What retention incentives work past wave 3?');
  await waitSynced(phone.page);

  await phone.page.goto('/profile');
  const mine = card(phone.page, 'Panel attrition in longitudinal studies');
  await expect(mine.getByText('pending', { exact: true })).toBeVisible();
  await waitSynced(phone.page);

  const queued = card(tablet.page, 'Panel attrition in longitudinal studies');
  await expect(queued).toBeVisible(); // no reload: the live stream told the tablet to pull
  await queued.getByRole('button', { name: 'Approve' }).click();
  await expect(tablet.page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
  await expect(queued).toHaveCount(0);

  // The phone stayed on its profile: the approval arrives without a reload.
  await expect(mine.getByText('approved', { exact: true })).toBeVisible();
  await expect(syncStatus(phone.page)).toHaveAccessibleName('Sync status: Synced');
  await phone.context.close();
  await tablet.context.close();
});
