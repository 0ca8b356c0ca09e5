import { expect, test } from '@playwright/test';
import { card, getPost, makePost, MEMBER, openForum, putPosts, storeSession, toast } from './support/app';

test.beforeEach(async ({ page }) => {
  await storeSession(page, MEMBER);
});

test('shows the hero, the static stats, the sidebar and the three sample posts', async ({ page }) => {
  await openForum(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const stats = page.getByRole('list', { name: 'Community at a glance' });
  for (const text of ['2,500+', 'Active Members', '1,200+', 'Discussions', '500+', 'Insights Shared'])
    await expect(stats).toContainText(text);
  await expect(page.getByRole('region', { name: 'Top Contributors' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Trending Topics' }).getByRole('listitem')).toHaveCount(5);
  await expect(page.getByRole('article')).toHaveCount(3);
  for (const category of ['AI & Technology', 'Qualitative', 'Quantitative']) {
    await expect(page.getByRole('article').filter({ hasText: category })).toHaveCount(1);
  }
  await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible();
});

test('a trending topic opens the search for its tag (issue 40)', async ({ page }) => {
  await openForum(page);
  await putPosts(page, [
    makePost({ title: 'Synthetic samples, tested', tags: ['Synthetic respondents'] }),
    makePost({ title: 'Another post about synthetic respondents', tags: ['panels'] }),
  ]);
  await page.getByRole('region', { name: 'Trending Topics' }).getByRole('link', { name: '#Synthetic respondents' }).click();
  await expect(page).toHaveURL(/\/forum\?q=tag%3A%22Synthetic(%20|\+)respondents%22/);
  await expect(page.getByLabel('Search posts')).toHaveValue('tag:"Synthetic respondents"');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Synthetic samples, tested')).toBeVisible();
});

test('search matches title or content case-insensitively, combined with the category', async ({ page }) => {
  await openForum(page);
  await putPosts(page, [
    makePost({ title: 'Panel quality in 2026', content: 'Bots and speeders in online panels.', category: 'Trends' }),
    makePost({ title: 'Coding open ends', content: 'We compared PANEL vendors on verbatim quality.', category: 'Qualitative' }),
    makePost({ title: 'Pending panel post', content: 'x', status: 'pending' }),
  ]);
  const search = page.getByLabel('Search posts');
  await search.fill('pAnEl');
  await expect(page.getByRole('article')).toHaveCount(2);
  await page.getByLabel('Category').selectOption('Qualitative');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Coding open ends')).toBeVisible();
  await page.getByLabel('Category').selectOption('Case Studies');
  await expect(page.getByText('No posts found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search or filters.')).toBeVisible();
  await page.getByLabel('Category').selectOption('All');
  await search.fill('');
  await expect(page.getByRole('article')).toHaveCount(5);
});

test('the category dropdown offers All and the six categories', async ({ page }) => {
  await openForum(page);
  await expect(page.getByLabel('Category').getByRole('option')).toHaveText([
    'All',
    'Quantitative',
    'Qualitative',
    'AI & Technology',
    'Trends',
    'Best Practices',
    'Case Studies',
  ]);
});

test('like adds one per click, with no limit, and is stored', async ({ page }) => {
  await openForum(page);
  const post = makePost({ title: 'Likeable', likes: 4 });
  await putPosts(page, [post]);
  const target = card(page, 'Likeable');
  const like = target.getByRole('button', { name: /^Like/ });
  await like.click();
  await like.click();
  await like.click();
  await expect(target).toContainText('7');
  // Screen readers hear the count too: it is part of the button's name.
  await expect(like).toHaveAccessibleName('Like: Likeable (7 likes)');
  await expect.poll(async () => (await getPost(page, post.id))?.likes).toBe(7);
  await page.reload();
  await expect(card(page, 'Likeable').getByRole('button', { name: /^Like/ })).toContainText('7');
});

test("each card shows comment and view counts and a share button that copies the post's link", async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openForum(page);
  const post = makePost({ title: 'Counted', comments: 12, views: 3456 });
  await putPosts(page, [post]);
  const target = card(page, 'Counted');
  await expect(target).toContainText('12');
  await expect(target).toContainText('3,456');
  await target.getByRole('button', { name: /Share/ }).click();
  await expect(toast(page, 'Link copied')).toContainText('Anyone who can see this post can open it.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(page.url()).origin}/posts/${post.id}`);
});

test('post content is clamped at three lines', async ({ page }) => {
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Long read', content: 'A sentence about fieldwork. '.repeat(80) })]);
  const content = card(page, 'Long read').locator('.app-post-content');
  await expect(content).toHaveCSS('-webkit-line-clamp', '3');
  const lines = await content.evaluate((element) => element.clientHeight / parseFloat(getComputedStyle(element).lineHeight));
  expect(Math.round(lines)).toBe(3);
});

const paged = (count: number) =>
  Array.from({ length: count }, (_, index) => makePost({ id: 1_800_000_000_000 + index, title: `Paged post ${index}` }));

test('shows 20 posts at a time, newest first, and the Load more button brings the next 20', async ({ page }) => {
  // Without IntersectionObserver (old browsers), the visible button is the way to load more.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'IntersectionObserver', { value: undefined, configurable: true });
  });
  await openForum(page);
  await putPosts(page, paged(45));
  await expect(page.getByRole('article')).toHaveCount(20);
  await expect(page.getByRole('article').first()).toContainText('Paged post 44');
  await page.getByRole('button', { name: 'Load more posts' }).click();
  await expect(page.getByRole('article')).toHaveCount(40);
  await page.getByRole('button', { name: 'Load more posts' }).click();
  await expect(page.getByRole('article')).toHaveCount(48);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toHaveCount(0);
});

test('scrolling near the end of the list loads the next posts by itself', async ({ page }) => {
  await openForum(page);
  await putPosts(page, paged(45));
  await expect(page.getByRole('article')).toHaveCount(20);
  await page.getByRole('article').last().scrollIntoViewIfNeeded();
  await expect.poll(() => page.getByRole('article').count()).toBeGreaterThanOrEqual(40);
  await page.getByRole('article').last().scrollIntoViewIfNeeded();
  await expect(page.getByRole('article')).toHaveCount(48);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toHaveCount(0);
});

test('the search and category survive a reload through the address', async ({ page }) => {
  await openForum(page);
  await page.getByLabel('Search posts').fill('diary');
  await expect(page).toHaveURL(/q=diary/);
  await page.reload();
  await expect(page.getByLabel('Search posts')).toHaveValue('diary');
  await expect(page.getByRole('article')).toHaveCount(1);
});
