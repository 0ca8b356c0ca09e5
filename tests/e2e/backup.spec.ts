import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, makePost, MEMBER, openForum, putPosts, signIn, storeSession, toast } from './support/app';

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

/** A backup of `count` posts; by `author`, the admin here, a large file's posts all go in as rows (a local account's own are never packed). */
const backup = (count: number, prefix: string, author = 'author@example.com') =>
  Buffer.from(
    JSON.stringify({
      format: 'insight-exchange-backup',
      version: 1,
      posts: Array.from({ length: count }, (_, i) =>
        makePost({ id: 1_500_000_000_000 + i, title: `${prefix} ${i}`, content: 'Imported content. '.repeat(20), authorEmail: author }),
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
  writeFileSync(file, backup(40_000, 'Cancelled import', ADMIN));
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

  await storeSession(page, MEMBER);
  await page.goto('/profile');
  const mine = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my posts' }).click();
  const download = await mine;
  expect(download.suggestedFilename()).toMatch(/^insight-exchange-my-posts-\d{4}-\d{2}-\d{2}\.json$/);
  const own = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { posts: { title: string; status: string }[] };
  expect(own.posts).toEqual([expect.objectContaining({ title: 'By the member', status: 'pending' })]);
});

test('a large import packs the older posts: the forum counts them, its end unpacks them, a search and a link find them, a backup keeps them', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // 5,600 posts: the newest 5,000 go in as rows, the 600 before them packed 500 to a record
  // (db/posts/packed.ts). Of the newest, three are in Qualitative; of the packed, one in six.
  const posts = Array.from({ length: 5_600 }, (_, i) =>
    makePost({
      id: 1_500_000_000_000 + i * 1_000,
      title: `Packed ${i}`,
      content: i === 20 ? 'Zeppelin quotas were missed in wave two.' : 'Imported content. '.repeat(20),
      category: (i < 600 && i % 6 === 0) || i >= 5_597 ? 'Qualitative' : 'Quantitative',
    }),
  );
  // The forum's sample posts are there already: the counts below add to theirs.
  const seeded = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
    });
    const rows = await new Promise<{ status: string; category: string }[]>((resolve) => {
      const request = db.transaction('posts').objectStore('posts').getAll();
      request.onsuccess = () => resolve(request.result as { status: string; category: string }[]);
    });
    db.close();
    const approved = rows.filter((row) => row.status === 'approved');
    return { all: approved.length, qualitative: approved.filter((row) => row.category === 'Qualitative').length };
  });
  const shown = (count: number) => `${count.toLocaleString('en-US')} posts`;
  await page.getByLabel('Backup file').setInputFiles({
    name: 'large.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ format: 'insight-exchange-backup', version: 1, posts })),
  });
  await page.getByRole('button', { name: 'Import posts' }).click();
  await expect(toast(page, 'Import complete')).toContainText('Added 5,600, updated 0, unchanged 0.');
  expect(await countPosts(page, 'Packed ')).toBe(5_000);

  await openForum(page);
  await expect(page.getByText(shown(5_600 + seeded.all), { exact: true })).toBeVisible();
  // A category: its three rows, then the packed ones, unpacked a page at a time at the list's end.
  await page.getByLabel('Category').selectOption('Qualitative');
  await expect(page.getByText(shown(103 + seeded.qualitative), { exact: true })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(3 + seeded.qualitative);
  const older = page.getByRole('button', { name: 'Load older posts' });
  await older.click();
  await expect(page.getByRole('heading', { name: 'Packed 594', exact: true })).toBeVisible();
  // The next pages (the list's own, then older ones unpacked): by their buttons, or by themselves
  // as the end scrolls into view.
  const next = page.getByRole('button', { name: /^Load (more|older) posts/ });
  await expect(async () => {
    if ((await next.count()) > 0) await next.first().click();
    await expect(page.getByRole('heading', { name: 'Packed 0', exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await expect(page.getByRole('button', { name: 'Load older posts' })).toHaveCount(0);
  await expect(page.getByRole('article')).toHaveCount(103 + seeded.qualitative);
  expect(await countPosts(page, 'Packed ')).toBe(5_100);

  // A search finds a packed post by its text; a link opens another.
  await page.getByLabel('Category').selectOption('All');
  await page.getByLabel('Search posts').fill('zeppelin');
  await expect(
    page.getByRole('status').filter({ hasText: 'Found 1 match in the older posts kept on this device: it is in the results below.' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Packed 20', exact: true })).toHaveCount(1);
  await expect(page.getByText('1 result for “zeppelin”')).toBeVisible();
  await page.goto(`/posts/${1_500_000_000_000 + 401 * 1_000}`);
  await expect(page.getByRole('heading', { name: 'Packed 401', exact: true, level: 1 })).toBeVisible();

  // A backup holds every post, packed or not.
  await page.goto('/admin');
  const all = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all posts' }).click();
  const exported = JSON.parse(readFileSync((await (await all).path())!, 'utf8')) as { count: number; posts: { title: string }[] };
  expect(exported.posts.filter((post) => post.title.startsWith('Packed '))).toHaveLength(5_600);
});
