// The forum snapshot on a connected device: posts that arrive by a pull rewrite it while the live
// forum is on screen; a pull while another screen is shown removes it (never a stale paint); a
// sign-out removes it.
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, newDevice, signIn, submitNewPost, waitSynced, passwordOf } from './support/devices';

const spec = serverForSpec(syncPort(10));

const storedSnapshot = (page: Page) =>
  page.evaluate(async () => {
    const response = await caches.match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' });
    return response ? ((await response.json()) as { owner: string; html: string }) : null;
  });

const snapshotHtml = (page: Page) => storedSnapshot(page).then((snapshot) => snapshot?.html ?? '');

test('pulled posts rewrite the snapshot; a pull away from the forum removes it; sign-out removes it', async ({ browser }) => {
  const phone = await newDevice(browser, spec.server, PHONE);
  const tablet = await newDevice(browser, spec.server, TABLET);
  await signIn(phone.page, 'jane.doe@example.com', passwordOf('jane.doe@example.com'));
  await phone.page.goto('/forum');
  await expect(phone.page.getByRole('article')).toHaveCount(3);
  await waitSynced(phone.page);
  await expect.poll(() => storedSnapshot(phone.page).then((snapshot) => snapshot?.owner), { timeout: 30_000 }).toBe('jane.doe@example.com');

  // Another member's post, approved on the tablet, reaches the phone by a pull: the snapshot follows.
  const title = 'Weighting schemes for online panels';
  await signIn(tablet.page, 'omar.other@example.com', passwordOf('omar.other@example.com'));
  await tablet.page.goto('/forum');
  await submitNewPost(tablet.page, title, 'Raking or propensity weights for a small panel?');
  await waitSynced(tablet.page);
  await signIn(tablet.page, 'admin@insightexchange.app', ADMIN_PASSWORD);
  await tablet.page.goto('/admin');
  await card(tablet.page, title).getByRole('button', { name: 'Approve' }).click();
  await expect(card(tablet.page, title)).toHaveCount(0);
  await expect(card(phone.page, title)).toBeVisible();
  await expect.poll(() => snapshotHtml(phone.page), { timeout: 30_000 }).toContain(title);

  // Away from the forum, a pulled change takes the snapshot away instead of leaving it stale.
  await phone.page.goto('/profile');
  await waitSynced(phone.page);
  await expect.poll(() => snapshotHtml(phone.page)).toContain(title);
  await tablet.page.goto('/forum');
  await card(tablet.page, title).getByRole('button', { name: /^Like/ }).click();
  await waitSynced(tablet.page);
  await expect.poll(() => storedSnapshot(phone.page), { timeout: 30_000 }).toBeNull();

  // Back on the forum, the live list stores a fresh one; signing out removes it.
  await phone.page.goto('/forum');
  await expect(card(phone.page, title)).toBeVisible();
  await expect.poll(() => snapshotHtml(phone.page), { timeout: 30_000 }).toContain(title);
  await phone.page.getByRole('button', { name: 'Menu' }).click(); // a phone's header menu
  await phone.page.getByRole('button', { name: 'Log out' }).click();
  await expect(phone.page).toHaveURL('/login');
  await expect.poll(() => storedSnapshot(phone.page)).toBeNull();
  await phone.context.close();
  await tablet.context.close();
});
