// Issue 23, saved posts: Save on the card and the post page, Profile's Saved Posts (live in a
// second tab), unsave, and saved posts with their replies readable offline after Free up space.
import { expect, test, type Page } from '@playwright/test';
import { card, makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, signIn, toast } from './support/app';
import { waitForServiceWorker } from './support/service-worker';

const saveOn = (scope: ReturnType<Page['getByRole']>) => scope.getByRole('button', { name: 'Save', exact: true });
const savedList = (page: Page) => page.getByRole('region', { name: 'Saved Posts' });

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`saved posts (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('Save on a card and on the post page, listed on Profile newest saved first, live in a second tab, unsaved', async ({ page }) => {
      await signIn(page, MEMBER);
      await openForum(page);
      const first = makePost({ title: 'Worth keeping' });
      const second = makePost({ title: 'Also worth keeping' });
      await putPosts(page, [first, second]);
      const profile = await page.context().newPage();
      await profile.goto('/profile');
      await expect(savedList(profile).getByText('No saved posts yet.')).toBeVisible();

      const button = saveOn(card(page, first.title));
      await expect(button).toHaveAttribute('aria-pressed', 'false');
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      await expect(savedList(profile).getByRole('link', { name: first.title })).toBeVisible();

      await card(page, second.title).getByRole('link', { name: second.title }).click();
      const onPage = saveOn(page.getByRole('article'));
      await expect(onPage).toHaveAttribute('aria-pressed', 'false');
      await onPage.click();
      await expect(onPage).toHaveAttribute('aria-pressed', 'true');
      await expect(savedList(profile).getByRole('link')).toHaveText([second.title, first.title]);

      // Unsave from Profile: the post page follows.
      await savedList(profile).getByRole('listitem').filter({ hasText: second.title }).getByRole('button', { name: 'Unsave' }).click();
      await expect(savedList(profile).getByRole('link')).toHaveText([first.title]);
      await expect(onPage).toHaveAttribute('aria-pressed', 'false');
      // Profile#saved-posts brings the section into view.
      await page.goto('/profile#saved-posts');
      await expect(savedList(page)).toBeInViewport();
      await savedList(page).getByRole('link', { name: first.title }).click();
      await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
    });

    test.describe('offline', () => {
      test.use({ serviceWorkers: 'allow' });

      test('saved posts and their replies stay readable offline after Free up space; a cleared post is gone', async ({ page, context }) => {
        await signIn(page, MEMBER);
        await openForum(page);
        await waitForServiceWorker(page);
        // Two old posts below 60 newer ones: one saved (with replies), one not.
        const saved = makePost({ id: 1_500_000_000_000, title: 'Old but saved', comments: 2 });
        const cleared = makePost({ id: 1_500_000_001_000, title: 'Old and not saved' });
        const newer = Array.from({ length: 60 }, (_, index) => makePost({ id: 1_900_000_000_000 + index * 1000, title: `Newer ${index}` }));
        await putRows(page, 'replies', [
          makeReplyRow(saved.id, 1, { content: 'First reply kept' }),
          makeReplyRow(saved.id, 2, { content: 'Second reply kept' }),
        ]);
        await putPosts(page, [saved, cleared, ...newer]);
        await page.goto(`/posts/${saved.id}`);
        await saveOn(page.getByRole('article')).click();
        await expect(saveOn(page.getByRole('article'))).toHaveAttribute('aria-pressed', 'true');

        await page.goto('/profile');
        await page.getByRole('button', { name: 'Free up space' }).click();
        const dialog = page.getByRole('dialog', { name: 'Free up space?' });
        await expect(dialog).toContainText('saved posts');
        await dialog.getByRole('button', { name: 'Free up space' }).click();
        await expect(toast(page, 'Space freed')).toContainText(/\d+ posts? removed/);
        await expect(savedList(page).getByRole('link', { name: saved.title })).toBeVisible();

        await context.setOffline(true);
        await page.goto(`/posts/${saved.id}`);
        await expect(page.getByRole('heading', { level: 1, name: saved.title })).toBeVisible();
        const replies = page.getByRole('list', { name: 'Replies' });
        await expect(replies).toContainText('First reply kept');
        await expect(replies).toContainText('Second reply kept');
        await page.goto(`/posts/${cleared.id}`);
        await expect(page.getByRole('heading', { level: 1, name: 'Post not available' })).toBeVisible();
        await context.setOffline(false);
      });
    });
  });
}
