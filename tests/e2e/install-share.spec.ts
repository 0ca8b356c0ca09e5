// Install and share into the app (issue 23): the manifest's shortcuts, screenshots and share
// target; /share opens New Post with what was shared as a draft (signing in first if needed), /new
// opens New Post; the address becomes /forum. The service worker serves /share offline.
import { expect, test, type Page } from '@playwright/test';
import { MEMBER, openForum, signIn } from './support/app';
import { waitForServiceWorker } from './support/service-worker';

interface Manifest {
  shortcuts: Array<{ name: string; url: string; icons: Array<{ src: string; sizes: string; type: string }> }>;
  screenshots: Array<{ src: string; sizes: string; form_factor: string; label: string }>;
  share_target: { action: string; method: string; params: Record<string, string> };
}

/** A PNG's size as "WxH", read from its IHDR chunk. */
async function pngSize(page: Page, src: string): Promise<string> {
  const response = await page.request.get(src);
  expect(response.ok(), src).toBe(true);
  expect(response.headers()['content-type']).toContain('image/png');
  const bytes = await response.body();
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test('the manifest: shortcuts with their icons, screenshots of the sizes it declares, a share target', async ({ page }) => {
  await page.goto('/');
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Manifest;
  expect(manifest.shortcuts.map((shortcut) => shortcut.name)).toEqual(['New Post', 'Forum', 'Saved']);
  for (const shortcut of manifest.shortcuts) {
    for (const icon of shortcut.icons) expect(await pngSize(page, icon.src)).toBe(icon.sizes);
  }
  expect(manifest.screenshots.map((shot) => shot.form_factor)).toEqual(['narrow', 'wide']);
  for (const shot of manifest.screenshots) {
    expect(await pngSize(page, shot.src)).toBe(shot.sizes);
    expect(shot.label).not.toBe('');
  }
  expect(manifest.share_target).toMatchObject({ action: '/share', method: 'GET', params: { title: 'title', text: 'text', url: 'url' } });
  // The dark variant is the same manifest in dark colours.
  const dark = (await (await page.request.get('/manifest-dark.webmanifest')).json()) as Manifest & { theme_color: string };
  expect({ ...dark, theme_color: undefined, background_color: undefined }).toEqual({
    ...manifest,
    theme_color: undefined,
    background_color: undefined,
  });
});

const SHARED = {
  title: 'A paper on survey fatigue',
  text: 'Worth a read before the next tracker wave.',
  url: 'https://example.com/papers/survey-fatigue',
};
const shareUrl = `/share?${new URLSearchParams(SHARED).toString()}`;

async function expectSharedDraft(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue(SHARED.title);
  await expect(dialog.getByRole('textbox', { name: 'Content' })).toHaveValue(`${SHARED.text}\n\n${SHARED.url}`);
  await expect(page).toHaveURL('/forum');
}

test('/share opens New Post with the shared title, text and link as a draft, not a post', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.goto(shareUrl);
  await expectSharedDraft(page);
  // A draft: nothing was posted, and it is still there after closing and opening again.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New Post' })).toBeHidden();
  await expect(page.getByRole('article').filter({ hasText: SHARED.title })).toHaveCount(0);
  await page.getByRole('button', { name: 'New Post' }).click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toHaveValue(SHARED.title);
});

test('signed out, /share asks to sign in first and then opens the draft', async ({ page }) => {
  await page.goto(shareUrl);
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Email').fill(MEMBER);
  await page.getByLabel('Password').fill('pass-1234');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expectSharedDraft(page);
});

test('the New Post shortcut (/new) opens New Post over the forum', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.goto('/new');
  await expect(page.getByRole('dialog', { name: 'New Post' })).toBeVisible();
  await expect(page).toHaveURL('/forum');
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('/share opens offline too (the worker answers it with the app)', async ({ page, context }) => {
    await signIn(page, MEMBER);
    await openForum(page);
    await waitForServiceWorker(page);
    // The New Post form's code, fetched once online (the worker precaches it too).
    await page.getByRole('button', { name: 'New Post' }).click();
    await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toBeFocused();
    await page.keyboard.press('Escape');
    await context.setOffline(true);
    await page.goto(shareUrl);
    await expectSharedDraft(page);
    await context.setOffline(false);
  });
});
