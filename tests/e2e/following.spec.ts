// Following on a local-only device (issue 62): "N new" on a card from the member's read position,
// the post page opening at the first new reply after a "New replies" divider and reading clearing
// the count, and a post muted from its "Follow" menu leaving the forum.
import { expect, test, type Page } from '@playwright/test';
import { card, getRow, makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, storeSession } from './support/app';

test('"N new" from the read position, cleared by reading at the divider; a muted post leaves the forum', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ title: 'Read to the first reply', comments: 3 });
  // Read to the first reply: two are new (the count the device keeps with the position).
  await putRows(
    page,
    'replies',
    [1, 2, 3].map((number) => makeReplyRow(post.id, number)),
  );
  await putRows(page, 'reads', [{ email: MEMBER, postId: post.id, readTo: makeReplyRow(post.id, 1).createdAt, unread: 2 }]);
  await putPosts(page, [post]);
  await expect(card(page, post.title).getByText('2 new')).toBeVisible();

  await card(page, post.title).getByRole('link', { name: post.title }).click();
  const replies = page.getByRole('list', { name: 'Replies' });
  const divider = replies.getByRole('separator', { name: 'New replies' });
  await expect(divider).toBeVisible();
  // The divider stands between the reply read and the first new one.
  await expect(replies.locator('li[role="separator"] + li')).toHaveAttribute('data-reply-id', `thread-${post.id}-2`);

  // Both new replies are on screen: read, so the card's count clears. The page records them once its
  // observer has seen them, and stores the position at its next beat (READ_COALESCE_MS): left before
  // that frame, a page saw nothing (CI once clicked Back first, and the count stayed).
  const last = makeReplyRow(post.id, 3).createdAt;
  await expect.poll(() => readTo(page, post.id)).toBe(last);
  await page.getByRole('link', { name: 'Back to the forum' }).click();
  await expect(card(page, post.title)).toBeVisible();
  await expect(card(page, post.title).getByText(/ new$/)).toHaveCount(0);

  await card(page, post.title).getByRole('link', { name: post.title }).click();
  const follow = page.getByRole('button', { name: 'Follow', exact: true });
  await expect(follow).toHaveAccessibleDescription('Normal');
  await follow.click();
  await page.getByRole('menuitemradio', { name: /^Muted/ }).click();
  await expect(follow).toHaveAccessibleDescription('Muted');

  await page.getByRole('link', { name: 'Back to the forum' }).click();
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(card(page, post.title)).toHaveCount(0);
  await page.getByLabel('Search posts').fill('is:unread');
  await expect(page.getByRole('list', { name: 'Search filters' }).getByRole('button', { name: 'Remove Unread' })).toBeVisible();
  await expect(page.getByText('No posts found')).toBeVisible();
});

/** The member's stored read position on post `postId` (the app's IndexedDB `reads`), or null. */
async function readTo(page: Page, postId: number): Promise<number | null> {
  return (await getRow<{ readTo: number }>(page, 'reads', [MEMBER, postId]))?.readTo ?? null;
}

test('a muted category that fills the newest pages leaves the forum, and the older posts below it show at once', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  // The older post first (ids grow): 30 newer posts in the muted category stand above it.
  const older = makePost({ title: 'Below the muted ones', category: 'Qualitative' });
  const muted = Array.from({ length: 30 }, (_, i) => makePost({ title: `Muted panel ${i + 1}`, category: 'Quantitative' }));
  await putRows(page, 'follows', [{ email: MEMBER, kind: 'category', target: 'Quantitative', level: 'muted', at: Date.now() }]);
  await putPosts(page, [older, ...muted]);
  await expect(card(page, older.title)).toBeVisible();
  await expect(page.getByText('No posts found')).toHaveCount(0);
  await expect(page.getByRole('article').filter({ hasText: 'Muted panel' })).toHaveCount(0);
});
