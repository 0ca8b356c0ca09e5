import { expect, test } from '@playwright/test';
import { card, getPost, makePost, MEMBER, openForum, putPosts, storeSession, submitNewPost, toast } from './support/app';

test('a tab still on the old version steps aside when a newer version upgrades the database', async ({ page, context }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ title: 'Before the upgrade', likes: 5 });
  await putPosts(page, [post]);
  await expect(card(page, 'Before the upgrade')).toBeVisible();

  // A newer build in another tab opens the database at the next version (Dexie's version n + 1,
  // which IndexedDB numbers 10 × (n + 1)).
  const newer = await context.newPage();
  await newer.goto('/about');
  const current = await newer.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('insight-exchange');
        request.onsuccess = () => {
          resolve(request.result.version);
          request.result.close();
        };
      }),
  );
  const upgrade = await newer.evaluate(
    (next) =>
      new Promise<{ version: number; blocked: boolean }>((resolve, reject) => {
        let blocked = false;
        const request = indexedDB.open('insight-exchange', next);
        request.onblocked = () => {
          blocked = true;
        };
        request.onupgradeneeded = () => {
          request.result.createObjectStore('added-by-the-next-version');
        };
        request.onsuccess = () => {
          const { version } = request.result;
          request.result.close();
          resolve({ version, blocked });
        };
        request.onerror = () => reject(request.error);
      }),
    current + 10,
  );
  expect(upgrade).toEqual({ version: current + 10, blocked: false });

  const banner = page.getByRole('alert').filter({ hasText: 'Insight Exchange was updated in another tab' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Reload' })).toBeVisible();

  // The old code writes nothing into the upgraded database.
  await submitNewPost(page, 'Written by old code', 'Must not be stored.');
  await expect(toast(page, 'Update needed', 'alert')).toContainText('Reload to continue');
  await page.keyboard.press('Escape');
  const stored = await newer.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('insight-exchange');
        request.onsuccess = () => {
          const count = request.result.transaction('posts').objectStore('posts').count();
          count.onsuccess = () => {
            request.result.close();
            resolve(count.result);
          };
        };
      }),
  );
  expect(stored).toBe(4);
  expect((await getPost(newer, post.id))?.likes).toBe(5);
});
