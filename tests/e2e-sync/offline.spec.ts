// Offline first: likes and a post made with no network show the same toasts, wait in the outbox
// (the header says how many), arrive once after reconnecting, and reloads resend nothing.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { card, newDevice, serverPosts, shownLikes, signIn, submitNewPost, syncStatus, waitSynced, passwordOf } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const TITLE = 'Notes from a field day with no signal';

const spec = serverForSpec(syncPort(2));

test('likes and a post made offline arrive once after reconnecting; reloads resend nothing', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server);
  await signIn(page, 'field@example.com', passwordOf('field@example.com'));
  await page.goto('/forum');
  await waitSynced(page);
  const before = await shownLikes(page, SAMPLE);
  // Load the New Post form's code while online (no service worker in this test to precache it).
  await page.getByRole('button', { name: 'New Post' }).first().click();
  await expect(page.getByRole('dialog', { name: 'New Post' })).toBeVisible();
  // Escape once the dialog is ready (its Title field takes the focus when it has opened).
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New Post' })).toBeHidden();
  // And Profile's (opened once while online).
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Posts' })).toBeVisible();
  await page.goto('/forum');
  await waitSynced(page);

  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline');
  const like = card(page, SAMPLE).getByRole('button', { name: /^Like/ });
  for (let i = 0; i < 3; i += 1) await like.click();
  await expect.poll(() => shownLikes(page, SAMPLE)).toBe(before + 3);
  await submitNewPost(page, TITLE, 'Queued on the device until the network came back.');
  // Nothing reached an admin: the toast says so (issue 59, item 7), not "now pending approval".
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Post Submitted!' })).toContainText(
    'it will be sent to an admin for review when this device is back online',
  );
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline, 4 changes waiting');
  expect((await serverPosts(spec.server, ADMIN_PASSWORD)).find((post) => post.title === SAMPLE)?.likes).toBe(before);
  // My Posts shows that the post waits on this device (not only "pending", as a post the admin has), until it is sent.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile', exact: true }).click();
  const mine = card(page, TITLE);
  await expect(mine.getByText('pending', { exact: true })).toBeVisible();
  await expect(mine.getByText('Not sent yet', { exact: true })).toBeVisible();

  await context.setOffline(false);
  await waitSynced(page);
  await expect(mine.getByText('Not sent yet', { exact: true })).toHaveCount(0);
  await expect(mine.getByText('pending', { exact: true })).toBeVisible();
  await page.goto('/forum');
  await waitSynced(page);
  const check = async () => {
    const posts = await serverPosts(spec.server, ADMIN_PASSWORD);
    expect(posts.find((post) => post.title === SAMPLE)?.likes).toBe(before + 3);
    expect(posts.filter((post) => post.title === TITLE)).toHaveLength(1);
  };
  await check();
  expect(await shownLikes(page, SAMPLE)).toBe(before + 3);

  for (let i = 0; i < 2; i += 1) {
    await page.reload();
    await waitSynced(page);
    expect(await shownLikes(page, SAMPLE)).toBe(before + 3);
  }
  await check();
  await page.goto('/profile');
  await expect(card(page, TITLE).getByText('pending', { exact: true })).toBeVisible();
  await expect(page.getByTestId('waiting-changes')).toHaveText('Nothing: every change reached the server');
  await context.close();
});
