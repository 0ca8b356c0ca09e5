import { expect, test, type Page } from '@playwright/test';
import { ADMIN, card, makePost, MEMBER, openForum, putPosts, signIn, storeSession, submitNewPost } from './support/app';

/** A second tab of the same browser (same storage), already on `path`. */
async function secondTab(page: Page, path: string): Promise<Page> {
  const other = await page.context().newPage();
  await other.goto(path);
  return other;
}

test('a like in one tab shows in the other without a reload', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Shared across tabs', likes: 10 })]);
  const other = await secondTab(page, '/forum');
  await expect(card(other, 'Shared across tabs')).toContainText('10');
  await card(page, 'Shared across tabs').getByRole('button', { name: /^Like/ }).click();
  await card(page, 'Shared across tabs').getByRole('button', { name: /^Like/ }).click();
  await expect(card(other, 'Shared across tabs').getByRole('button', { name: /^Like/ })).toContainText('12');
});

test('a new post in one tab appears in the other tab’s profile and admin queue', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  const profile = await secondTab(page, '/profile');
  const admin = await secondTab(page, '/admin');
  await expect(admin.getByText('All caught up!')).toBeVisible();
  await submitNewPost(page, 'Posted in tab one', 'Visible everywhere.');
  await expect(card(profile, 'Posted in tab one')).toContainText('pending');
  await expect(card(admin, 'Posted in tab one')).toBeVisible();
});

test('an approval in one tab publishes the post in the other tab’s forum, and clears both queues', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Needs a moderator', status: 'pending' })]);
  const forum = await secondTab(page, '/forum');
  const queue = await secondTab(page, '/admin');
  await expect(card(queue, 'Needs a moderator')).toBeVisible();
  await page.goto('/admin');
  await card(page, 'Needs a moderator').getByRole('button', { name: 'Approve' }).click();
  await expect(card(forum, 'Needs a moderator')).toBeVisible();
  await expect(queue.getByText('All caught up!')).toBeVisible();
});

test('a rejection in one tab shows on the author’s profile in another', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Will be rejected', status: 'pending', authorEmail: ADMIN })]);
  const profile = await secondTab(page, '/profile');
  await expect(card(profile, 'Will be rejected')).toContainText('pending');
  await page.goto('/admin');
  await card(page, 'Will be rejected').getByRole('button', { name: 'Reject' }).click();
  await expect(card(profile, 'Will be rejected')).toContainText('rejected');
});

test('signing out in one tab signs out every tab', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  const other = await secondTab(page, '/profile');
  await expect(other.getByRole('heading', { name: 'My Posts' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(other).toHaveURL('/login');
  await expect(other.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
});

test('signing in in one tab shows in the others', async ({ page }) => {
  await page.goto('/');
  const other = await secondTab(page, '/about');
  await expect(other.getByRole('banner').getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await signIn(page, MEMBER);
  await expect(other.getByRole('banner').getByRole('link', { name: 'Go to Forum' })).toBeVisible();
  await expect(other.getByRole('banner').getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
});
