// Helpers for the What's new specs: posts that arrive on this device the way an older
// build's copy brings them (the `posts` key, imported at start or, from another tab, at once), so
// they count as arrived since the last visit without the test knowing how arrival is stored.
import { expect, type Page } from '@playwright/test';
import type { TestPost } from './app';

/** Adds posts to the `posts` localStorage copy (in another tab, the app imports them at once). */
export async function addToLegacyCopy(page: Page, posts: TestPost[]): Promise<void> {
  await page.evaluate((items) => {
    const current = JSON.parse(localStorage.getItem('posts') ?? '[]') as unknown[];
    localStorage.setItem('posts', JSON.stringify([...current, ...items]));
  }, posts);
}

/** The latest visit any member began on this device (the `visit:<email>` meta rows), 0 when none. */
function latestVisit(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('insight-exchange');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = await new Promise<{ key: string; value: unknown }[]>((resolve, reject) => {
      const all = db.transaction('meta').objectStore('meta').getAll();
      all.onsuccess = () => resolve(all.result as { key: string; value: unknown }[]);
      all.onerror = () => reject(all.error);
    });
    db.close();
    return Math.max(
      0,
      ...rows.filter((row) => row.key.startsWith('visit:') && typeof row.value === 'number').map((row) => row.value as number),
    );
  });
}

/** Waits until the page's own visit is recorded (it starts once the first posts are painted). */
async function visitRecorded(page: Page): Promise<void> {
  const loadedAt = await page.evaluate(() => Math.floor(performance.timeOrigin));
  await expect.poll(() => latestVisit(page)).toBeGreaterThanOrEqual(loadedAt);
}

/**
 * Reloads and waits for the forum's first post: one visit more (what's new counts from the one
 * before). Both loads' visits are waited for: a page left before its visit was recorded is no visit.
 */
export async function newVisit(page: Page): Promise<void> {
  await visitRecorded(page);
  await page.reload();
  await expect(page.getByRole('article').first()).toBeVisible();
  await visitRecorded(page);
}
