// Issue 23, what's new: posts that arrived since the member's last visit are marked "New" until
// seen, with the "N new posts" pill that scrolls to them; a post arriving while the forum is open
// adds to the pill.
import { expect, test, type Page } from '@playwright/test';
import { card, makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, storeSession } from './support/app';
import { addToLegacyCopy, newVisit } from './support/arrivals';

const pill = (page: Page) => page.getByRole('button', { name: /^\d+ new posts?$/ });
const newBadge = (page: Page, title: string) => card(page, title).getByText('New', { exact: true });

/** 24 posts newer than anything else, there before the last visit (not new). */
const OLDER_VISIT = Array.from({ length: 24 }, (_, index) =>
  makePost({ id: 1_900_000_000_000 + index * 1000, title: `Already here ${index + 1}`, authorEmail: 'someone@example.com' }),
);

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`what's new (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('posts that arrived since the last visit are New; the pill scrolls to the first and focuses it; seen posts are not New again', async ({
      page,
    }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, OLDER_VISIT);
      await newVisit(page);
      // Arrived after that visit: one far down the list (older id), and one of the member's own (never new).
      const arrived = makePost({ id: 1_600_000_000_000, title: 'Arrived while you were away', authorEmail: 'ana@example.com' });
      const mine = makePost({ id: 1_600_000_001_000, title: 'Written by me elsewhere', authorEmail: MEMBER });
      await addToLegacyCopy(page, [arrived, mine]);
      await newVisit(page);
      await expect(pill(page)).toHaveText('1 new post');
      await expect(card(page, 'Already here 24').getByText('New', { exact: true })).toHaveCount(0);
      await pill(page).click();
      const target = card(page, arrived.title);
      await expect(target).toBeFocused();
      await expect(target).toBeInViewport({ ratio: 0.5 });
      await expect(newBadge(page, arrived.title)).toBeVisible();
      await expect(newBadge(page, mine.title)).toHaveCount(0);
      // Seen: the pill goes, the mark stays for the rest of this view.
      await expect(pill(page)).toHaveCount(0);
      await expect(newBadge(page, arrived.title)).toBeVisible();
      // The next visit to the forum (same page load) no longer marks it.
      await page.getByRole('link', { name: 'Profile' }).first().click();
      await expect(page).toHaveURL('/profile');
      // Profile itself on screen: its code loads on the click, and until it is here the router keeps
      // the forum up (a transition), so a click back would never have left the forum.
      await expect(page.getByRole('heading', { name: 'Saved Posts', exact: true })).toBeVisible();
      await page.getByRole('link', { name: 'Forum' }).first().click();
      await expect(card(page, 'Already here 24')).toBeVisible();
      // Scrolled to the end, the list loads the rest by itself.
      await expect(async () => {
        await page.getByRole('article').last().scrollIntoViewIfNeeded();
        await expect(card(page, arrived.title)).toBeVisible({ timeout: 1_000 });
      }).toPass();
      await expect(newBadge(page, arrived.title)).toHaveCount(0);
    });

    test('a post arriving while the forum is open adds to the pill', async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, OLDER_VISIT);
      await newVisit(page);
      // Read down the list, so the top of it is out of view.
      await card(page, 'Already here 8').scrollIntoViewIfNeeded();
      const other = await page.context().newPage();
      await other.goto('/profile');
      await expect(other.getByRole('heading', { name: 'Saved Posts', exact: true })).toBeVisible();
      await addToLegacyCopy(other, [makePost({ id: 1_950_000_000_000, title: 'Live arrival', authorEmail: 'ben@example.com' })]);
      await expect(pill(page)).toHaveText('1 new post');
      await addToLegacyCopy(other, [makePost({ id: 1_950_000_001_000, title: 'Second live arrival', authorEmail: 'ben@example.com' })]);
      await expect(pill(page)).toHaveText('2 new posts');
      // The first-paint snapshot stored from this list keeps the cards but not the pill or the marks.
      await expect
        .poll(
          async () => {
            const html = await page.evaluate(async () => {
              const stored = await caches.match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' });
              return stored ? ((await stored.json()) as { html: string }).html : '';
            });
            return html.includes('Second live arrival') && !html.includes('new posts') && !html.includes('>New<');
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await other.close();
    });

    test('a reply that arrived since the last visit is New on its post page until seen', async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      const post = makePost({ title: 'A conversation', comments: 2 });
      await putPosts(page, [post]);
      await newVisit(page);
      // Rows written as this device stores an arrival (arrivedAt): one before this visit, one after it
      // (a minute ahead, so it is after however late the visit's own time was written).
      const now = Date.now();
      await putRows(page, 'replies', [
        makeReplyRow(post.id, 1, { content: 'An older reply', arrivedAt: now - 3_600_000 } as never),
        makeReplyRow(post.id, 2, { content: 'A reply from today', arrivedAt: now + 60_000 } as never),
      ]);
      await newVisit(page);
      await card(page, post.title).getByRole('link', { name: post.title }).click();
      const replies = page.getByRole('list', { name: 'Replies' });
      const fresh = replies.getByRole('listitem').filter({ hasText: 'A reply from today' });
      await expect(fresh.getByText('New', { exact: true })).toBeVisible();
      await expect(replies.getByRole('listitem').filter({ hasText: 'An older reply' }).getByText('New', { exact: true })).toHaveCount(0);
      // Seen (it is in view): opening the post again no longer marks it.
      await page.getByRole('link', { name: 'Back to the forum' }).click();
      await card(page, post.title).getByRole('link', { name: post.title }).click();
      await expect(replies.getByRole('listitem').filter({ hasText: 'A reply from today' })).toBeVisible();
      await expect(replies.getByText('New', { exact: true })).toHaveCount(0);
    });
  });
}
