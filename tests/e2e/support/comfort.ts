// Helpers for the Comfort specs (issue 23): posts that arrive on this device the way an older
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

/** Reloads and waits for the forum's first post: one visit more (what's new counts from the one before). */
export async function newVisit(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByRole('article').first()).toBeVisible();
}
