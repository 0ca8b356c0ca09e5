import { expect, test } from '@playwright/test';
import { MEMBER, makePost } from './support/app';

test('a first start that brings in a large posts copy shows its progress, not a bare Loading...', async ({ page }) => {
  // 9,000 posts (about 4.5 MB), left under `posts` by an older build before this one ever ran.
  const posts = Array.from({ length: 9_000 }, (_, i) =>
    makePost({
      id: 1_600_000_000_000 + i * 1_000,
      title: `Older build post ${i}`,
      content: `Kept from the older build, row ${i}. `.repeat(6),
    }),
  );
  await page.addInitScript(
    ([raw, user]) => {
      localStorage.setItem('insightExchangeUser', user);
      if (localStorage.getItem('posts') === null) localStorage.setItem('posts', raw);
    },
    [JSON.stringify(posts), JSON.stringify({ email: MEMBER, name: 'Jane Doe', role: 'user' })] as const,
  );
  expect(JSON.stringify(posts).length).toBeGreaterThan(4_000_000);
  await page.goto('/forum');
  await expect(page.getByRole('status').filter({ hasText: 'Bringing 9,000 posts into this device…' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Older build post 8999', exact: true })).toBeVisible({ timeout: 90_000 });
});
