import { expect, test } from '@playwright/test';
import { ADMIN, card, getPost, makePost, openForum, putPosts, storeSession, toast } from './support/app';
import { expectNoSeriousViolations } from './support/axe';

test.beforeEach(async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
});

test('a typed Reason goes with Reject and shows on the author’s Profile; one click rejects without one', async ({ page }) => {
  await putPosts(page, [
    makePost({ id: 1_970_000_000_001, title: 'Needs a reason', status: 'pending', authorEmail: ADMIN }),
    makePost({ id: 1_970_000_000_002, title: 'Plain reject', status: 'pending', authorEmail: ADMIN }),
  ]);
  await page.goto('/admin');
  const withReason = card(page, 'Needs a reason');
  await withReason.getByLabel('Reason').fill('Please add your sample size.');
  await withReason.getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, 'Post rejected')).toBeVisible();
  await expect(withReason).toHaveCount(0);
  await card(page, 'Plain reject').getByRole('button', { name: 'Reject' }).click();
  await expect(card(page, 'Plain reject')).toHaveCount(0);

  expect((await getPost(page, 1_970_000_000_001))?.status).toBe('rejected');
  await page.goto('/profile');
  await expect(card(page, 'Needs a reason')).toContainText('rejected');
  await expect(card(page, 'Needs a reason').getByText('Reason: Please add your sample size.')).toBeVisible();
  await expect(card(page, 'Plain reject')).toContainText('rejected');
  await expect(card(page, 'Plain reject').getByText(/Reason:/)).toHaveCount(0);
});

test('Reject selected sends the Reason typed on each post (none where none was typed)', async ({ page }) => {
  await putPosts(page, [
    makePost({ id: 1_974_000_000_001, title: 'Bulk reason one', status: 'pending' }),
    makePost({ id: 1_974_000_000_002, title: 'Bulk reason two', status: 'pending' }),
  ]);
  await page.goto('/admin');
  await card(page, 'Bulk reason one').getByLabel('Reason').fill('Duplicate of another thread');
  for (const title of ['Bulk reason one', 'Bulk reason two']) await card(page, title).getByRole('checkbox', { name: 'Select' }).check();
  await page.getByRole('button', { name: 'Reject selected' }).click();
  await expect(toast(page, '2 posts rejected')).toBeVisible();
  expect(await getPost(page, 1_974_000_000_001)).toMatchObject({ status: 'rejected', reason: 'Duplicate of another thread' });
  expect(((await getPost(page, 1_974_000_000_002)) as { reason?: string | null } | undefined)?.reason ?? null).toBeNull();
});

test('bulk: select 3, Approve selected, Undo puts them back; without Undo they stay approved', async ({ page }) => {
  const titles = ['Bulk one', 'Bulk two', 'Bulk three'];
  await putPosts(page, [
    ...titles.map((title, index) => makePost({ id: 1_971_000_000_001 + index, title, status: 'pending' })),
    makePost({ id: 1_971_000_000_009, title: 'Left alone', status: 'pending' }),
  ]);
  await page.goto('/admin');
  const approveSelected = page.getByRole('button', { name: 'Approve selected' });
  await expect(approveSelected).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reject selected' })).toBeDisabled();
  for (const title of titles) await card(page, title).getByRole('checkbox', { name: 'Select' }).check();
  await expect(page.getByText('3 selected')).toBeVisible();
  await approveSelected.click();
  const done = toast(page, '3 posts approved');
  await expect(done).toContainText('You can undo this for 5 seconds.');
  for (const title of titles) await expect(card(page, title)).toHaveCount(0);
  await expect(card(page, 'Left alone')).toBeVisible();
  // Pressed on the button itself: the toast can still be moving (the queue's focus moves as the cards leave).
  await done.getByRole('button', { name: 'Undo' }).dispatchEvent('click');
  await expect(toast(page, 'Review undone')).toBeVisible();
  for (const title of titles) await expect(card(page, title)).toBeVisible();
  expect((await getPost(page, 1_971_000_000_001))?.status).toBe('pending');

  // Select all shown picks the fourth too; unselect it, then approve and let the Undo pass.
  await page.getByRole('button', { name: 'Select all shown' }).click();
  await expect(page.getByText('4 selected')).toBeVisible();
  await card(page, 'Left alone').getByRole('checkbox', { name: 'Select' }).uncheck();
  await approveSelected.click();
  await expect(toast(page, '3 posts approved')).toBeVisible();
  await expect(toast(page, '3 posts approved')).toHaveCount(0, { timeout: 10_000 });
  for (const [index] of titles.entries()) expect((await getPost(page, 1_971_000_000_001 + index))?.status).toBe('approved');
  await page.goto('/forum');
  for (const title of titles) await expect(card(page, title)).toBeVisible();
});

test('keyboard only: ? lists the keys; j / k move; keys typed in Reason are text; r, x and a review the whole queue', async ({ page }) => {
  await putPosts(page, [
    makePost({ id: 1_972_000_000_001, title: 'Key first', status: 'pending' }),
    makePost({ id: 1_972_000_000_002, title: 'Key second', status: 'pending' }),
    makePost({ id: 1_972_000_000_003, title: 'Key third', status: 'pending' }),
  ]);
  await page.goto('/admin');
  await expect(page.getByText('Press ? for keyboard shortcuts')).toBeVisible();
  await expect(card(page, 'Key first')).toBeVisible();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Next pending post');
  await expect(help).toContainText('Reject the current post');
  await expectNoSeriousViolations(page, 'the shortcuts dialog');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await page.keyboard.press('j');
  await expect(card(page, 'Key first')).toBeFocused();
  await page.keyboard.press('j');
  await expect(card(page, 'Key second')).toBeFocused();
  await page.keyboard.press('k');
  await expect(card(page, 'Key first')).toBeFocused();
  await expectNoSeriousViolations(page, 'a focused card');

  // Letters typed in Reason are text, not keys.
  const reason = card(page, 'Key first').getByLabel('Reason');
  await reason.focus();
  await page.keyboard.type('Duplicate of an earlier question, see the archive');
  await expect(reason).toHaveValue('Duplicate of an earlier question, see the archive');
  await expect(card(page, 'Key first')).toBeVisible();
  await page.keyboard.press('Tab'); // Select: not a field, so keys work again.
  await page.keyboard.press('r');
  await expect(toast(page, 'Post rejected')).toBeVisible();
  await expect(card(page, 'Key first')).toHaveCount(0);
  expect(await getPost(page, 1_972_000_000_001)).toMatchObject({
    status: 'rejected',
    reason: 'Duplicate of an earlier question, see the archive',
  });

  // Focus moved on to the next post: x selects it, a approves it, and the last one too.
  await expect(card(page, 'Key second').getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('x');
  await expect(card(page, 'Key second').getByRole('checkbox', { name: 'Select' })).toBeChecked();
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.keyboard.press('a');
  await expect(card(page, 'Key second')).toHaveCount(0);
  await expect(card(page, 'Key third').getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('Control+a'); // a chord is never a shortcut
  await expect(card(page, 'Key third')).toBeVisible();
  await page.keyboard.press('a');
  await expect(page.getByText('All caught up!')).toBeVisible();
  expect((await getPost(page, 1_972_000_000_003))?.status).toBe('approved');
});

test('the Admin link is named exactly "Admin"; its description counts the queue, live from another tab', async ({ page, context }) => {
  await putPosts(page, [
    makePost({ id: 1_973_000_000_001, title: 'Count one', status: 'pending' }),
    makePost({ id: 1_973_000_000_002, title: 'Count two', status: 'pending' }),
  ]);
  await page.goto('/forum');
  const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true });
  await expect(admin).toHaveAccessibleName('Admin');
  await expect(admin).toHaveAccessibleDescription('2 posts waiting for review');
  await expect(admin).toContainText('2');

  const other = await context.newPage();
  await other.goto('/admin');
  await card(other, 'Count one').getByRole('button', { name: 'Approve' }).click();
  await expect(admin).toHaveAccessibleDescription('1 post waiting for review');
  await card(other, 'Count two').getByRole('button', { name: 'Reject' }).click();
  await expect(admin).toHaveAccessibleDescription('No posts waiting for review');
  await expect(admin.locator('.badge')).toHaveCount(0);
  await expect(admin).toHaveAccessibleName('Admin');
});

test('/admin has the tabs Pending Posts and Flags; the heading Pending Posts is in its panel', async ({ page }) => {
  await page.goto('/admin');
  const pendingTab = page.getByRole('tab', { name: 'Pending Posts', exact: true });
  await expect(pendingTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel').getByRole('heading', { name: /Pending Posts/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Flags', exact: true }).click();
  await expect(page).toHaveURL('/admin?tab=flags');
  await expect(page.getByRole('tabpanel').getByText('No open flags')).toBeVisible();
  // Keys of the queue do nothing on the Flags tab.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
});
