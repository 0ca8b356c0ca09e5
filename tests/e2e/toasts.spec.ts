import { expect, test } from '@playwright/test';
import { MEMBER, openForum, signIn, toast } from './support/app';

test('only one toast shows at a time: a new one replaces the old', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, MEMBER);
  await openForum(page);
  await page
    .getByRole('article')
    .first()
    .getByRole('button', { name: /^Share/ })
    .click();
  await expect(toast(page, 'Link copied')).toBeVisible();
  await page.getByRole('button', { name: 'New Post' }).click();
  await page.getByRole('dialog', { name: 'New Post' }).getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Missing Information', 'alert')).toBeVisible();
  await expect(page.locator('.app-toasts .toast')).toHaveCount(1);
});

test('a toast leaves after 5 seconds', async ({ page }) => {
  const start = new Date('2026-11-21T10:00:00Z');
  await page.clock.install({ time: start });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  // Stop the page's clock so that only runFor moves it.
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const error = toast(page, 'Error', 'alert');
  await expect(error).toBeVisible();
  await page.clock.runFor(4_900);
  await expect(error).toBeVisible();
  await page.clock.runFor(200);
  await expect(error).toBeHidden();
});

test('toasts appear inside live regions that were in the page before them', async ({ page }) => {
  await page.goto('/login');
  const polite = page.locator('.app-toasts [role="status"][aria-live="polite"]');
  const assertive = page.locator('.app-toasts [role="alert"][aria-live="assertive"]');
  await expect(polite).toHaveCount(1);
  await expect(assertive).toHaveCount(1);
  await expect(polite).toBeEmpty();
  await expect(assertive).toBeEmpty();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(assertive).toContainText('Please enter email and password.');
  await expect(polite).toBeEmpty();
});
