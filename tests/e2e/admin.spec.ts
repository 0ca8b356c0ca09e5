import { expect, test } from '@playwright/test';
import { ADMIN, card, makePost, openForum, putPosts, storeSession, toast } from './support/app';

test.beforeEach(async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
});

test('approving a pending post publishes it on the forum', async ({ page }) => {
  await putPosts(page, [makePost({ title: 'Awaiting review', status: 'pending', content: 'Line one. '.repeat(60) })]);
  await page.goto('/admin');
  const pending = card(page, 'Awaiting review');
  await expect(pending.locator('.app-post-content')).toHaveCSS('-webkit-line-clamp', '2');
  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Post approved')).toContainText('The post has been successfully approved.');
  await expect(pending).toHaveCount(0);
  await page.getByRole('link', { name: 'Forum', exact: true }).click();
  await expect(card(page, 'Awaiting review')).toBeVisible();
});

test('rejecting keeps the post off the forum and on its author profile as rejected', async ({ page }) => {
  await putPosts(page, [makePost({ title: 'Off topic', status: 'pending', authorEmail: ADMIN })]);
  await page.goto('/admin');
  await card(page, 'Off topic').getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, 'Post rejected')).toContainText('The post has been successfully rejected.');
  await page.goto('/forum');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(card(page, 'Off topic')).toHaveCount(0);
  await page.goto('/profile');
  await expect(card(page, 'Off topic')).toContainText('rejected');
});

test('from the keyboard, focus moves on to the next pending post after each review, oldest first', async ({ page }) => {
  await putPosts(page, [
    makePost({ id: 1_960_000_000_003, title: 'Third in the queue', status: 'pending' }),
    makePost({ id: 1_960_000_000_002, title: 'Second in the queue', status: 'pending' }),
    makePost({ id: 1_960_000_000_001, title: 'First in the queue', status: 'pending' }),
  ]);
  await page.goto('/admin');
  // A queue is fair: the post that waited longest comes first (issue 40).
  await expect(page.getByRole('tabpanel').getByRole('article').getByRole('heading', { level: 3 })).toHaveText([
    'First in the queue',
    'Second in the queue',
    'Third in the queue',
  ]);
  const approve = card(page, 'First in the queue').getByRole('button', { name: 'Approve' });
  await approve.focus();
  await page.keyboard.press('Enter');
  await expect(card(page, 'First in the queue')).toHaveCount(0);
  await expect(card(page, 'Second in the queue').getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(card(page, 'Second in the queue').getByRole('button', { name: 'Reject' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card(page, 'Third in the queue').getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('All caught up!')).toBeVisible();
  await expect(page.locator('#main')).toBeFocused();
});

test('Read all shows a pending post whole, in place, rendered; Show less clamps it again', async ({ page }) => {
  const content = `Intro line.\n\n| Wave | Speeders removed |\n|---|---|\n| 1 | 120 |\n\n${'More words here. '.repeat(40)}The very end.`;
  await putPosts(page, [makePost({ title: 'Judge me whole', status: 'pending', content })]);
  await page.goto('/admin');
  const pending = card(page, 'Judge me whole');
  await expect(pending.locator('.app-post-content')).toHaveCSS('-webkit-line-clamp', '2');
  await expect(pending.getByRole('table')).toHaveCount(0);
  const more = pending.getByRole('button', { name: 'Read all' });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  await expect(pending.getByRole('table').getByRole('cell', { name: '120' })).toBeVisible();
  await expect(pending.getByText('The very end.')).toBeVisible();
  await expect(pending.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  await pending.getByRole('button', { name: 'Show less' }).click();
  await expect(pending.getByRole('table')).toHaveCount(0);
  await expect(pending.locator('.app-post-content')).toHaveCSS('-webkit-line-clamp', '2');
});

test('an empty queue says all caught up', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByText('All caught up!')).toBeVisible();
  await expect(page.getByText('There are no pending posts to review.')).toBeVisible();
});

test('the admin guard shows Loading... until the stored session is read', async ({ page }) => {
  // With localStorage unusable, the session comes from IndexedDB, so reading it takes a moment.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('Blocked', 'SecurityError');
      },
    });
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const main = document.querySelector('#root')?.textContent ?? '';
      if (main.includes('Loading...')) seen.push('loading');
      if (main.includes('Pending Posts')) seen.push('admin');
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill('x');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen.indexOf('loading')).toBeGreaterThanOrEqual(0);
  expect(seen.indexOf('loading')).toBeLessThan(seen.indexOf('admin'));
});
