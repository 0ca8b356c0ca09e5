// Member pages and Edit Profile (issue 23): /members/<memberId> shows the member's name, join date,
// figures and approved posts, only what every member may see; an unknown id says so; Edit
// Profile renames the member at once on Profile, their public page and their posts.
import { expect, test, type Page } from '@playwright/test';
import { memberId } from '../../src/shared/members';
import { makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, storeSession } from './support/app';

const AUTHOR = 'ana.lima@example.com';

const figure = (page: Page, label: string) =>
  page.getByRole('definition').filter({ has: page.locator(`xpath=preceding-sibling::dt[1][normalize-space()="${label}"]`) });

async function seedAnasPosts(page: Page) {
  const older = makePost({ title: 'Coding open ends at scale', author: 'Ana Lima', authorEmail: AUTHOR, likes: 2 });
  const approved = makePost({ title: 'Diary studies that people finish', author: 'Ana Lima', authorEmail: AUTHOR, likes: 4 });
  const pending = makePost({ title: 'Ana, still in review', author: 'Ana Lima', authorEmail: AUTHOR, status: 'pending' });
  const other = makePost({ title: 'Not by Ana', author: 'Ben Okafor', authorEmail: 'ben@example.com' });
  await putPosts(page, [approved, older, pending, other], { reload: false });
  await putRows(page, 'replies', [
    makeReplyRow(other.id, 1, { author: 'Ana Lima', authorEmail: AUTHOR }),
    makeReplyRow(other.id, 2, { author: 'Ana Lima', authorEmail: AUTHOR, state: 'hidden' }),
  ]);
  await page.reload();
}

for (const mode of ['light', 'dark'] as const) {
  test(`a member's page: name, figures and approved posts, from what this device holds (${mode})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: mode });
    await storeSession(page, MEMBER);
    await openForum(page);
    await seedAnasPosts(page);
    await page.goto(`/members/${memberId(AUTHOR)}`);
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', mode);
    await expect(page.getByRole('heading', { level: 1, name: 'Ana Lima' })).toBeVisible();
    await expect(page).toHaveTitle('Ana Lima · Insight Exchange');
    await expect(figure(page, 'posts')).toHaveText('2');
    await expect(figure(page, 'reply')).toHaveText('1');
    await expect(figure(page, 'likes received')).toHaveText('6');
    await expect(page.getByText('Counted from the posts and replies on this device.')).toBeVisible();
    await expect(page.getByText('Figures from what this device holds')).toHaveCount(0);
    const posts = page.getByRole('region', { name: 'Posts by Ana Lima' }).getByRole('article');
    await expect(posts).toHaveCount(2);
    await expect(posts.first()).toContainText('Diary studies that people finish');
    // The page's avatar has the colour of Ana's avatar on her posts (one colour per person).
    const colour = (avatar: ReturnType<Page['locator']>) => avatar.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await colour(page.locator('.app-avatar').first())).toBe(await colour(posts.first().locator('.app-avatar')));
    // Nothing pending, nothing by others, and never the email.
    await expect(page.getByText('Ana, still in review')).toHaveCount(0);
    await expect(page.getByText('Not by Ana')).toHaveCount(0);
    await expect(page.getByText(AUTHOR)).toHaveCount(0);
    await posts.first().getByRole('link', { name: 'Diary studies that people finish' }).click();
    await expect(page).toHaveURL(/\/posts\/\d+$/);
  });
}

test('an unknown member, or an address that is no member id, says "Member not found"', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  for (const id of ['ffffffffffffffff', 'not-a-member']) {
    await page.goto(`/members/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Member not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the forum' })).toBeVisible();
  }
});

test('Edit Profile: the display name is checked, then shows at once on Profile, the public page and the member posts', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Written by Jane', author: 'Jane Doe', authorEmail: MEMBER })]);
  await page.goto('/profile');
  const before = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  const field = dialog.getByRole('textbox', { name: 'Display name' });
  await expect(field).toHaveValue(before);
  await expect(field).toBeFocused();

  await field.fill('   ');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a display name.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill('x'.repeat(120));
  await expect(field).toHaveValue('x'.repeat(100));
  await expect(dialog.getByText('A display name can be at most 100 characters.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(before);

  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await field.fill('Jane Q. Researcher');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jane Q. Researcher');
  await expect(page.getByRole('article').filter({ hasText: 'Written by Jane' })).toContainText('Jane Q. Researcher');

  await page.getByRole('link', { name: 'View public page' }).click();
  await expect(page).toHaveURL(`/members/${memberId(MEMBER)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Jane Q. Researcher' })).toBeVisible();
  await page.goto('/forum');
  await expect(page.getByRole('article').filter({ hasText: 'Written by Jane' })).toContainText('Jane Q. Researcher');
  // Still so after a reload: the signed-in user carries the new name.
  await page.reload();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jane Q. Researcher');
});
