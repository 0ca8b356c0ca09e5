// Helpers for the multi-device specs of preferences, saved posts and member pages.
import { expect, type Page } from '@playwright/test';
import { sendOps } from './devices';

/** Creates and approves posts as the page's admin, in order (the first is the oldest); returns their ids. */
export async function publish(page: Page, titles: string[]): Promise<number[]> {
  const created = await sendOps(
    page,
    titles.map((title) => ({ type: 'create', post: { title, content: `About ${title}.`, category: 'Trends' } })),
  );
  const ids = created.results.map((result) => result.postId!);
  const approved = await sendOps(
    page,
    ids.map((postId) => ({ type: 'approve', postId })),
  );
  expect(approved.results.every((result) => result.status === 'applied')).toBe(true);
  return ids;
}

/**
 * Presses one of Profile's Theme buttons (the radio's label) once the control holds the member's
 * theme: until then its radios are disabled, and a press on a disabled radio's label does nothing.
 */
export async function chooseTheme(page: Page, name: 'System' | 'Light' | 'Dark'): Promise<void> {
  const group = page.getByRole('group', { name: 'Theme' });
  await expect(group.getByRole('radio', { name })).toBeEnabled();
  await group.getByText(name, { exact: true }).click();
  await expect(group.getByRole('radio', { name })).toBeChecked();
}
