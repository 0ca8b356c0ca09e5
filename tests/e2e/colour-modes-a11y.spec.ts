// Every screen, dialog, toast and chart in both colour modes passes axe (issue 23, dark mode):
// the device's setting picks the mode (the member's Theme is System). In light mode, a11y.spec.ts
// already scans most of these screens at this width: here light mode scans only the rest (`alsoLight`),
// and the flow around them still runs (issue 64, item 6: each axe scan takes seconds of a 2-core CI).
import { expect, test, type Page } from '@playwright/test';
import { memberId } from '../../src/shared/members';
import { expectNoSeriousViolations } from './support/axe';
import { ADMIN, makePost, MEMBER, openForum, putPosts, signIn, storeSession } from './support/app';

const AUTHOR = 'ana.lima@example.com';

async function inMode(page: Page, mode: 'light' | 'dark') {
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', mode);
}

for (const mode of ['light', 'dark'] as const) {
  test.describe(`axe in ${mode} mode`, () => {
    test.use({ colorScheme: mode, viewport: { width: 1280, height: 900 } });

    /** axe on the screen; in light mode only where `alsoLight` says a11y.spec.ts does not scan it. */
    const scan = (page: Page, label: string, alsoLight = false) =>
      mode === 'dark' || alsoLight ? expectNoSeriousViolations(page, label) : Promise.resolve();

    test('public pages, the sign-in toast, the forum and a post page', async ({ page }) => {
      await page.goto('/');
      await inMode(page, mode);
      await scan(page, `/ (${mode}, visitor)`);
      await page.goto('/login');
      await scan(page, `/login (${mode})`);
      await signIn(page, MEMBER);
      await scan(page, `/ with the sign-in toast (${mode})`, true);
      await openForum(page);
      await putPosts(page, [
        makePost({ title: 'Diary studies that people finish', author: 'Ana Lima', authorEmail: AUTHOR, tags: ['diary'], likes: 3 }),
        makePost({ title: 'Mine, pending', authorEmail: MEMBER, author: 'Jane Doe', status: 'pending' }),
      ]);
      await expect(page.getByRole('article').first()).toBeVisible();
      await inMode(page, mode);
      await scan(page, `/forum (${mode})`);
      await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
      await expect(page.getByRole('list', { name: 'Replies' })).toBeVisible();
      await scan(page, `post page (${mode})`);
    });

    test('a member page, Profile with Edit Profile, /notifications, New Post and a toast', async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, [
        makePost({ title: 'Diary studies that people finish', author: 'Ana Lima', authorEmail: AUTHOR, tags: ['diary'], likes: 3 }),
        makePost({ title: 'Mine, pending', authorEmail: MEMBER, author: 'Jane Doe', status: 'pending' }),
      ]);
      await inMode(page, mode);
      await page.goto(`/members/${memberId(AUTHOR)}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Ana Lima' })).toBeVisible();
      await expect(page.getByRole('article').first()).toBeVisible();
      await scan(page, `member page (${mode})`, true);
      await page.goto('/profile');
      await expect(page.getByRole('article').first()).toBeVisible();
      await scan(page, `/profile (${mode})`);
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Profile' })).toBeVisible();
      await scan(page, `Edit Profile dialog (${mode})`, true);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Profile' })).toBeHidden();
      await page.goto('/notifications');
      await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
      await scan(page, `/notifications (${mode})`);
      await page.getByRole('button', { name: 'New Post' }).click();
      await expect(page.getByRole('dialog', { name: 'New Post' })).toBeVisible();
      await scan(page, `New Post dialog (${mode})`);
      await page.getByRole('button', { name: 'Submit Post' }).click();
      await expect(page.locator('.app-toasts').getByRole('alert')).toBeVisible();
      await scan(page, `New Post with an error toast (${mode})`, true);
    });

    // Both screens are scanned in light mode by a11y.spec.ts.
    if (mode === 'dark')
      test('the admin queue and /admin/insights with its charts', async ({ page }) => {
        await storeSession(page, ADMIN);
        await openForum(page);
        await putPosts(page, [makePost({ title: 'Queued one', status: 'pending' })]);
        await page.goto('/admin');
        await expect(page.getByRole('article').first()).toBeVisible();
        await inMode(page, mode);
        await scan(page, `/admin (${mode})`);
        await page.goto('/admin/insights');
        await expect(page.locator('.app-chart-canvas canvas').first()).toBeVisible();
        await scan(page, `/admin/insights (${mode})`);
      });
  });
}
