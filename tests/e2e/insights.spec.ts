import { expect, test } from '@playwright/test';
import { ADMIN, makePost, MEMBER, openForum, putPosts, storeSession, type TestPost } from './support/app';

const HOUR = 3_600_000;

/** A reviewed post that waited `hours` for review, in a category. */
function reviewed(id: number, hours: number, category: string, now: number): TestPost {
  const reviewedAt = now - 24 * HOUR;
  return { ...makePost({ id, title: `Reviewed ${id}`, category }), submittedAt: reviewedAt - hours * HOUR, reviewedAt } as TestPost;
}

test('insights: review times in human units, posts per category with its numbers, and uPlot fetched on this route only', async ({
  page,
}) => {
  const charts: string[] = [];
  page.on('request', (request) => {
    if (/uPlot/i.test(request.url())) charts.push(request.url());
  });
  await storeSession(page, ADMIN);
  await openForum(page);
  const now = Date.now();
  await putPosts(page, [
    reviewed(1_995_000_000_001, 1, 'Trends', now),
    reviewed(1_995_000_000_002, 1, 'Trends', now),
    reviewed(1_995_000_000_003, 1, 'Case Studies', now),
    reviewed(1_995_000_000_004, 2, 'Case Studies', now),
    reviewed(1_995_000_000_005, 3, 'Case Studies', now),
    { ...makePost({ id: 1_995_000_000_006, title: 'Still waiting', status: 'pending' }), submittedAt: now - HOUR } as TestPost,
  ]);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: /Pending Posts/ })).toBeVisible();
  expect(charts).toEqual([]);

  await page.getByRole('link', { name: 'Insights' }).click();
  await expect(page).toHaveURL('/admin/insights');
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
  await expect(page.getByText('Computed on this device')).toBeVisible();

  const review = page.getByRole('region', { name: 'Time to review' });
  await expect(review.getByText('Median')).toBeVisible();
  await expect(review.locator('dd').first()).toHaveText('1 h');
  await expect(review.locator('dd').nth(1)).toHaveText('3 h');

  const categories = page.getByRole('region', { name: 'Posts per category' });
  // Every category named, with its figures as text.
  const trends = categories.getByRole('list', { name: 'Posts per category' }).getByRole('listitem').filter({ hasText: 'Trends' });
  await expect(trends).toHaveText(/Trends\s*2\s*\(2 approved\)/);
  await expect(categories.getByRole('listitem')).toHaveCount(6);
  const weekly = page.getByRole('region', { name: 'Posts and likes per week' });
  await expect(weekly.getByRole('img', { name: /Posts and likes per week/ })).toBeVisible();
  await expect(weekly.locator('canvas')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Review queue, last 30 days' }).getByRole('img')).toBeVisible();
  expect(charts.length).toBeGreaterThan(0);
});

test('members cannot open /admin/insights', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await page.goto('/admin/insights');
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toHaveCount(0);
  await expect(page).not.toHaveURL('/admin/insights');
});
