// Issue 23: saved posts follow the member to a second device through the server, and stay
// readable offline (with their replies) after Free up space cleared the rest of the forum.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { sendOps, signedInDevice, waitSynced } from './support/devices';
import { publish } from './support/member-actions';

const ADMIN = 'admin@insightexchange.app';
const MEMBER = 'reader@example.com';

const spec = serverForSpec(syncPort(21));

test('saved on one device, listed on the other; after Free up space the saved post and its replies read offline, a cleared one is gone', async ({
  browser,
}) => {
  const admin = await signedInDevice(browser, spec.server, ADMIN);
  const [savedId, clearedId] = await publish(admin.page, ['Old but saved', 'Old and not saved']);
  await publish(
    admin.page,
    Array.from({ length: 55 }, (_, index) => `Newer post ${index + 1}`),
  );
  const replied = await sendOps(admin.page, [
    { type: 'reply', postId: savedId, content: 'First reply kept' },
    { type: 'reply', postId: savedId, content: 'Second reply kept' },
  ]);
  expect(replied.results.every((result) => result.status === 'applied')).toBe(true);
  await admin.context.close();

  const phone = await signedInDevice(browser, spec.server, MEMBER);
  const tablet = await signedInDevice(browser, spec.server, MEMBER, undefined, '/profile');
  await phone.page.goto(`/posts/${savedId}`);
  await expect(phone.page.getByRole('heading', { level: 1, name: 'Old but saved' })).toBeVisible();
  const save = phone.page.getByRole('article', { name: 'Old but saved' }).getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  await waitSynced(phone.page);
  // The other device: listed under Saved Posts once the save arrives.
  const tabletSaved = tablet.page.getByRole('region', { name: 'Saved Posts' });
  await expect(tabletSaved.getByRole('link', { name: 'Old but saved' })).toBeVisible({ timeout: 30_000 });
  await tablet.context.close();

  const { page, context } = phone;
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Free up space' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free up space?' });
  await expect(dialog).toContainText('saved posts');
  await dialog.getByRole('button', { name: 'Free up space' }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Space freed' })).toContainText(/\d+ posts? removed/);
  const saved = page.getByRole('region', { name: 'Saved Posts' });
  await expect(saved.getByRole('link', { name: 'Old but saved' })).toBeVisible();

  // Offline, moving inside the app (its code is already loaded).
  await context.setOffline(true);
  await saved.getByRole('link', { name: 'Old but saved' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Old but saved' })).toBeVisible();
  const replies = page.getByRole('list', { name: 'Replies' });
  await expect(replies).toContainText('First reply kept');
  await expect(replies).toContainText('Second reply kept');
  await page.evaluate((id) => {
    history.pushState(null, '', `/posts/${id}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, clearedId);
  await expect(page.getByRole('heading', { level: 1, name: 'Post not available' })).toBeVisible();
  await context.setOffline(false);
  await context.close();
});
