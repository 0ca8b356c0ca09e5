// Issue 23 (search, saved posts, what's new): axe on /forum with search chips, marks and the
// "N new posts" pill, and on Profile with Saved Posts, in both colour modes (light at 390 px, dark at 1280). With UI2_SHOTS set,
// also writes screenshots for a person to look at (390, 820 and 1280 px) under that folder.
import { expect, test, type Page } from '@playwright/test';
import { card, makePost, MEMBER, openForum, putPosts, storeSession } from './support/app';
import { expectNoSeriousViolations } from './support/axe';
import { addToLegacyCopy, newVisit } from './support/arrivals';

const SHOTS = process.env.UI2_SHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

// Both colour modes and both widths, paired: light at a phone's width, dark at a desktop's (each
// pairing costs CI about 30 s; axe at both widths in light mode is a11y.spec.ts's, in dark mode at
// 1280 colour-modes-a11y.spec.ts's). Every pairing, and 820 px, with UI2_SHOTS.
const PAIRINGS = { light: SHOTS ? [390, 820, 1280] : [390], dark: SHOTS ? [390, 820, 1280] : [1280] } as const;

for (const scheme of ['light', 'dark'] as const) {
  for (const width of PAIRINGS[scheme]) {
    test.describe(`search and saved posts screens, ${scheme}, ${width} px`, () => {
      test.use({ colorScheme: scheme, viewport: { width, height: 900 } });

      test('forum with chips, marks and the pill; a post page; Profile with Saved Posts', async ({ page }) => {
        await storeSession(page, MEMBER);
        await openForum(page);
        await putPosts(page, [
          makePost({ title: 'Panel quality in 2026', content: 'Bots and speeders in online panels.', author: 'Ana Silva', tags: ['nps'] }),
          makePost({ title: 'Coding open ends', content: 'We compared panel vendors.', author: 'Ben Okafor', tags: ['coding'] }),
        ]);
        await newVisit(page);
        await addToLegacyCopy(page, [
          makePost({ id: 1_600_000_000_000, title: 'Arrived while you were away', authorEmail: 'new@example.com' }),
        ]);
        await newVisit(page);
        await expect(page.getByRole('button', { name: '1 new post' })).toBeVisible();
        await expectNoSeriousViolations(page, 'forum with the pill');
        await shot(page, `forum-pill-${scheme}-${width}`);
        await page.getByRole('button', { name: '1 new post' }).click();
        await expect(card(page, 'Arrived while you were away')).toBeFocused();
        await expect(card(page, 'Arrived while you were away').getByText('New', { exact: true })).toBeVisible();
        await expectNoSeriousViolations(page, 'forum with a New card');
        await shot(page, `forum-new-${scheme}-${width}`);
        await page.evaluate(() => window.scrollTo(0, 0));

        await page.getByLabel('Search posts').fill('panel author:ana tag:nps');
        await expect(page.getByRole('list', { name: 'Search filters' })).toBeVisible();
        await expect(card(page, 'Panel quality in 2026').locator('mark').first()).toBeVisible();
        await expectNoSeriousViolations(page, 'forum with chips and marks');
        await shot(page, `forum-search-${scheme}-${width}`);

        await card(page, 'Panel quality in 2026').getByRole('button', { name: 'Save', exact: true }).click();
        await card(page, 'Panel quality in 2026').getByRole('link', { name: 'Panel quality in 2026' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Panel quality in 2026' })).toBeVisible();
        await expectNoSeriousViolations(page, 'post page with Save pressed');
        await shot(page, `post-${scheme}-${width}`);

        await page.goto('/profile#saved-posts');
        await expect(page.getByRole('region', { name: 'Saved Posts' }).getByRole('link', { name: 'Panel quality in 2026' })).toBeVisible();
        await expectNoSeriousViolations(page, 'Profile with Saved Posts');
        await shot(page, `profile-saved-${scheme}-${width}`);
      });
    });
  }
}
