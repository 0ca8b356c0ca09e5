import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, makePost, MEMBER, openForum, putPosts, signIn, toast } from './support/app';

async function countPosts(page: Page, titlePrefix: string): Promise<number> {
  return page.evaluate(async (prefix) => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
    });
    const rows = await new Promise<{ title: string }[]>((resolve) => {
      const request = db.transaction('posts').objectStore('posts').getAll();
      request.onsuccess = () => resolve(request.result as { title: string }[]);
    });
    db.close();
    return rows.filter((row) => row.title.startsWith(prefix)).length;
  }, titlePrefix);
}

const backup = (count: number, prefix: string) =>
  Buffer.from(
    JSON.stringify({
      format: 'insight-exchange-backup',
      version: 1,
      posts: Array.from({ length: count }, (_, i) =>
        makePost({ id: 1_500_000_000_000 + i, title: `${prefix} ${i}`, content: 'Imported content. '.repeat(20) }),
      ),
    }),
  );

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await openForum(page);
  await page.goto('/admin');
});

test('an import shows its progress, and Cancel keeps whole chunks of 4,000 only', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // A 22 MB file goes by path: the browser reads it from disk. Passed as a buffer, Playwright
  // sends every byte through the DevTools protocol, which took over 15 s on a loaded machine.
  const file = testInfo.outputPath('big-backup.json');
  writeFileSync(file, backup(40_000, 'Cancelled import'));
  await page.getByLabel('Backup file').setInputFiles(file);
  await page.getByRole('button', { name: 'Import posts' }).click();
  const bar = page.getByRole('progressbar');
  await expect(bar).toBeVisible();
  await expect(page.getByText(/Importing [\d,]+ of 40,000 posts/)).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { intervals: [50] }).toBeGreaterThanOrEqual(5);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(toast(page, 'Import cancelled')).toContainText('posts were imported before you cancelled');
  const imported = await countPosts(page, 'Cancelled import');
  expect(imported % 4_000).toBe(0);
  expect(imported).toBeGreaterThanOrEqual(4_000);
  expect(imported).toBeLessThan(40_000);
  await expect(page.getByRole('status').filter({ hasText: 'Import cancelled after' })).toContainText(
    `${imported.toLocaleString('en-US')} posts`,
  );
});

test('a complete import says what it added, and a second import of the same file changes nothing', async ({ page }) => {
  const file = { name: 'backup.json', mimeType: 'application/json', buffer: backup(2_500, 'Round trip') };
  await page.getByLabel('Backup file').setInputFiles(file);
  await page.getByRole('button', { name: 'Import posts' }).click();
  await expect(toast(page, 'Import complete')).toContainText('Added 2,500, updated 0, unchanged 0.');
  await page.getByLabel('Backup file').setInputFiles(file);
  await page.getByRole('button', { name: 'Import posts' }).click();
  await expect(toast(page, 'Import complete')).toContainText('Added 0, updated 0, unchanged 2,500.');
  expect(await countPosts(page, 'Round trip')).toBe(2_500);
});

test('a bad file gets a clear error and changes nothing', async ({ page }) => {
  for (const [name, content, message] of [
    ['broken.json', '{"format": "insight-exchange-backup", "posts": [', 'This file is not valid JSON.'],
    ['other.json', '{"hello": "world"}', 'This file is not an Insight Exchange backup'],
    ['half-good.json', JSON.stringify([makePost({ title: 'Good one' }), { id: 5, title: 'No content' }]), 'Post 2 (id 5) has no content.'],
  ] as const) {
    await page.getByLabel('Backup file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
    await page.getByRole('button', { name: 'Import posts' }).click();
    await expect(toast(page, 'Backup not imported', 'alert')).toContainText(message);
    await expect(toast(page, 'Backup not imported', 'alert')).toContainText('Nothing was imported.');
  }
  expect(await countPosts(page, 'Good one')).toBe(0);
});

test('an admin exports every post, a member only their own', async ({ page }) => {
  await putPosts(page, [
    makePost({ title: 'By the member', authorEmail: MEMBER, status: 'pending' }),
    makePost({ title: 'By someone else' }),
  ]);
  const all = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all posts' }).click();
  const everything = JSON.parse(readFileSync((await (await all).path())!, 'utf8')) as { posts: { title: string }[] };
  expect(everything.posts.map((post) => post.title)).toEqual(expect.arrayContaining(['By the member', 'By someone else']));
  expect(everything.posts).toHaveLength(5);

  await signIn(page, MEMBER);
  await page.goto('/profile');
  const mine = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my posts' }).click();
  const download = await mine;
  expect(download.suggestedFilename()).toMatch(/^insight-exchange-my-posts-\d{4}-\d{2}-\d{2}\.json$/);
  const own = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { posts: { title: string; status: string }[] };
  expect(own.posts).toEqual([expect.objectContaining({ title: 'By the member', status: 'pending' })]);
});
