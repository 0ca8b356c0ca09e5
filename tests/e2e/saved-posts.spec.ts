// Issue 23, saved posts on a local-only device: Save on the card and the post page, Profile's
// Saved Posts (live in a second tab), unsave. (Free up space is for connected devices, where the
// server keeps what it removes: tests/e2e-sync/saved-posts.spec.ts.)
import { expect, test, type Page } from '@playwright/test';
import { card, makePost, MEMBER, openForum, putPosts, signIn, storeSession } from './support/app';

const saveOn = (scope: ReturnType<Page['getByRole']>) => scope.getByRole('button', { name: 'Save', exact: true });
const savedList = (page: Page) => page.getByRole('region', { name: 'Saved Posts' });

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`saved posts (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('Save on a card and on the post page, listed on Profile newest saved first, live in a second tab, unsaved', async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      const first = makePost({ title: 'Worth keeping' });
      const second = makePost({ title: 'Also worth keeping' });
      await putPosts(page, [first, second]);
      const profile = await page.context().newPage();
      await profile.goto('/profile');
      await expect(savedList(profile).getByText('No saved posts yet.')).toBeVisible();

      const button = saveOn(card(page, first.title));
      await expect(button).toHaveAttribute('aria-pressed', 'false');
      await expect(button).toHaveText('Save');
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      // The label says the state; the toggle's name stays "Save" (issue 40).
      await expect(button).toHaveText('Saved');
      await expect(savedList(profile).getByRole('link', { name: first.title })).toBeVisible();

      await card(page, second.title).getByRole('link', { name: second.title }).click();
      await expect(page.getByRole('heading', { level: 1, name: second.title })).toBeVisible();
      const onPage = saveOn(page.getByRole('article', { name: second.title }));
      await expect(onPage).toHaveAttribute('aria-pressed', 'false');
      await onPage.click();
      await expect(onPage).toHaveAttribute('aria-pressed', 'true');
      await expect(onPage).toHaveText('Saved');
      await expect(savedList(profile).getByRole('link')).toHaveText([second.title, first.title]);

      // Unsave from Profile: the post page follows.
      await savedList(profile).getByRole('listitem').filter({ hasText: second.title }).getByRole('button', { name: 'Unsave' }).click();
      await expect(savedList(profile).getByRole('link')).toHaveText([first.title]);
      await expect(onPage).toHaveAttribute('aria-pressed', 'false');
      await expect(onPage).toHaveText('Save');
      // Profile#saved-posts brings the section into view.
      await page.goto('/profile#saved-posts');
      await expect(savedList(page)).toBeInViewport();
      await savedList(page).getByRole('link', { name: first.title }).click();
      await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
      // Local-only, this device is the only copy: nothing offers to remove posts from it.
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Storage on this device' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Free up space' })).toHaveCount(0);
    });
  });
}

test('on a phone, the post page’s actions are one row in one look: Save, Flag and Share alike (issue 40)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, MEMBER);
  // A new browser's database is made by the first member screen (the forum's first frame comes before it).
  await openForum(page);
  const post = makePost({ title: 'One row of actions' });
  await putPosts(page, [post]);
  await page.goto(`/posts/${post.id}`);
  const article = page.getByRole('article', { name: post.title });
  const row = [
    article.getByRole('button', { name: /^Like/ }),
    saveOn(article),
    article.getByRole('button', { name: 'Flag', exact: true }),
    article.getByRole('button', { name: /^Share/ }),
  ];
  await expect(row[2]!).toBeEnabled();
  const middles = await Promise.all(row.map(async (item) => ((box) => box.y + box.height / 2)((await item.boundingBox())!)));
  for (const middle of middles) expect(Math.abs(middle - middles[0]!)).toBeLessThan(4);
  // No outline on one and not the others (asked until the buttons' colour transitions, 0.15 s after
  // Flag is enabled, have ended).
  const outlined = () =>
    Promise.all(
      row.slice(1).map((item) =>
        item.evaluate((element) => {
          const style = getComputedStyle(element);
          return style.borderTopStyle !== 'none' && style.borderTopWidth !== '0px' && style.borderTopColor !== 'rgba(0, 0, 0, 0)';
        }),
      ),
    );
  await expect.poll(outlined).toEqual([false, false, false]);
});
