// Issue 23, search that finds what you mean: the filters of the search language against a seeded
// set with known answers, chips, marks, `/`, and the query kept in the address (Back, a shared link).
import { expect, test, type ElementHandle, type Page } from '@playwright/test';
import { card, makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, signIn, storeSession } from './support/app';

const SEED = [
  makePost({
    title: 'Panel quality in 2026',
    content: 'Bots and speeders in online panels.',
    category: 'Trends',
    author: 'Ana Silva',
    authorEmail: 'ana@example.com',
    tags: ['panels', 'nps'],
  }),
  makePost({
    title: 'Coding open ends',
    content: 'We compared panel vendors on verbatim quality.',
    category: 'Qualitative',
    author: 'Ben Okafor',
    authorEmail: 'ben@example.com',
    tags: ['coding'],
  }),
  makePost({
    title: 'Diary studies that last',
    content: 'Keeping respondents engaged for two weeks.',
    category: 'Qualitative',
    author: 'Ana Silva',
    authorEmail: 'ana@example.com',
    tags: ['diary'],
  }),
  makePost({
    title: 'My own survey notes',
    content: 'Notes on exact phrase matching in survey panels.',
    category: 'Quantitative',
    author: 'Jane Doe',
    authorEmail: MEMBER,
    tags: ['nps'],
  }),
];

const titles = (page: Page) => page.getByRole('article').getByRole('heading').allInnerTexts();
const search = (page: Page) => page.getByLabel('Search posts');
const chips = (page: Page) => page.getByRole('list', { name: 'Search filters' });

async function expectResults(page: Page, query: string, expected: string[]) {
  await search(page).fill(query);
  if (expected.length === 0) await expect(page.getByText('No posts found')).toBeVisible();
  else await expect.poll(async () => (await titles(page)).sort()).toEqual([...expected].sort());
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`search (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test.beforeEach(async ({ page }) => {
      await signIn(page, MEMBER);
      await openForum(page);
      await putPosts(page, SEED);
      await expect(card(page, 'Panel quality in 2026')).toBeVisible();
    });

    test('each filter, a phrase and combinations find exactly the expected posts', async ({ page }) => {
      await expectResults(page, 'author:ana', ['Panel quality in 2026', 'Diary studies that last']);
      await expectResults(page, 'author:"Ben Okafor"', ['Coding open ends']);
      await expectResults(page, 'category:qualitative', [
        'Coding open ends',
        'Diary studies that last',
        'Remote ethnography: what worked in our 12-market diary study',
      ]);
      await expectResults(page, 'tag:nps', ['Panel quality in 2026', 'My own survey notes']);
      await expectResults(page, 'is:mine', ['My own survey notes']);
      await expectResults(page, '"exact phrase"', ['My own survey notes']);
      await expectResults(page, 'panel author:ana', ['Panel quality in 2026']);
      await expectResults(page, 'tag:nps is:mine', ['My own survey notes']);
      await expectResults(page, 'author:ana author:ben panel', ['Panel quality in 2026', 'Coding open ends']);
      await expectResults(page, 'author:ben tag:diary', []);
      // The category dropdown combines with the filters.
      await search(page).fill('author:ana');
      await page.getByLabel('Category').selectOption('Qualitative');
      await expect.poll(() => titles(page)).toEqual(['Diary studies that last']);
    });

    test('filters show as chips that remove themselves from the query; matched words are marked', async ({ page }) => {
      await search(page).fill('panel author:"Ana Silva" tag:nps "online panels"');
      await expect(chips(page).getByRole('button')).toHaveText(['Author: Ana Silva', 'Tag: nps', '“online panels”']);
      await expect.poll(() => titles(page)).toEqual(['Panel quality in 2026']);
      const result = card(page, 'Panel quality in 2026');
      await expect(result.locator('mark')).toHaveText(['Panel', 'online panels']);
      await chips(page).getByRole('button', { name: 'Remove Tag: nps' }).click();
      await expect(search(page)).toHaveValue('panel author:"Ana Silva" "online panels"');
      await expect(search(page)).toBeFocused();
      await chips(page).getByRole('button', { name: 'Remove “online panels”' }).click();
      await chips(page).getByRole('button', { name: 'Remove Author: Ana Silva' }).click();
      await expect(search(page)).toHaveValue('panel');
      await expect(chips(page)).toHaveCount(0);
      await expect
        .poll(async () => (await titles(page)).sort())
        .toEqual(['Coding open ends', 'My own survey notes', 'Panel quality in 2026']);
      await expect(card(page, 'Coding open ends').locator('mark')).toHaveText(['panel']);
    });

    test('`/` focuses the search box, but not while typing elsewhere or with a modifier', async ({ page }) => {
      await page.getByRole('heading', { name: 'Community Forum' }).click();
      await page.keyboard.press('Control+/');
      await expect(search(page)).not.toBeFocused();
      await page.keyboard.press('/');
      await expect(search(page)).toBeFocused();
      await expect(search(page)).toHaveValue('');
      // In New Post's fields a slash is typed, not a shortcut.
      await page.getByRole('button', { name: 'New Post' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Post' });
      await dialog.getByLabel('Title').fill('');
      await dialog.getByLabel('Title').pressSequentially('and/or');
      await expect(dialog.getByLabel('Title')).toHaveValue('and/or');
      await expect(dialog.getByLabel('Title')).toBeFocused();
      // Behind a dialog, `/` is not the forum's (even with the focus on one of its buttons).
      await dialog.getByRole('button', { name: 'Cancel' }).focus();
      await page.keyboard.press('/');
      await expect(dialog).toBeVisible();
      await expect(search(page)).not.toBeFocused();
    });

    test('the query and category are in the address: Back and a shared link restore them', async ({ page, context }) => {
      await search(page).fill('author:ana');
      await page.getByLabel('Category').selectOption('Qualitative');
      await expect(page).toHaveURL(/q=author%3Aana/);
      await expect(page).toHaveURL(/category=Qualitative/);
      await card(page, 'Diary studies that last').getByRole('link', { name: 'Diary studies that last' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Diary studies that last' })).toBeVisible();
      await page.goBack();
      await expect(search(page)).toHaveValue('author:ana');
      await expect(page.getByLabel('Category')).toHaveValue('Qualitative');
      await expect(chips(page).getByRole('button', { name: 'Remove Author: ana' })).toBeVisible();
      await expect.poll(() => titles(page)).toEqual(['Diary studies that last']);
      // Removing a chip is a step of its own: Back brings it back.
      await chips(page).getByRole('button', { name: 'Remove Author: ana' }).click();
      await expect(search(page)).toHaveValue('');
      await expect.poll(async () => (await titles(page)).length).toBeGreaterThan(1);
      await expect(page).toHaveURL(/\/forum\?category=Qualitative$/);
      await page.goBack();
      await expect(search(page)).toHaveValue('author:ana');
      await expect.poll(() => titles(page)).toEqual(['Diary studies that last']);
      // A shared link, opened in a new page.
      const shared = await context.newPage();
      await shared.goto(page.url());
      await expect(shared.getByLabel('Search posts')).toHaveValue('author:ana');
      await expect(shared.getByLabel('Category')).toHaveValue('Qualitative');
      await expect.poll(() => titles(shared)).toEqual(['Diary studies that last']);
      await expect(shared.getByRole('list', { name: 'Search filters' }).getByRole('button')).toHaveText(['Author: ana']);
      // Typing at once after Back (before the restored query settled): the address follows what is typed.
      await page.goBack();
      await search(page).fill('diary');
      await expect(page).toHaveURL(/[?&]q=diary(&|$)/);
      await expect(search(page)).toHaveValue('diary');
      // The same, at the worst moment: typed while the browser has gone Back but the router's
      // (transition) render of that address has not happened yet. The typing wins; the address's category is kept.
      const backTo = new URL(page.url()).searchParams.get('category') ?? 'All';
      await page.getByLabel('Category').selectOption('Trends');
      await expect(page).toHaveURL(/category=Trends/);
      const box = (await search(page).elementHandle()) as ElementHandle<HTMLInputElement>;
      await page.evaluate((box) => {
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        addEventListener(
          'popstate',
          () => {
            setValue.call(box, 'wombat');
            box.dispatchEvent(new Event('input', { bubbles: true }));
          },
          { once: true },
        );
        history.back();
      }, box);
      await expect(page).toHaveURL(/[?&]q=wombat(&|$)/);
      await expect(search(page)).toHaveValue('wombat');
      await expect(page.getByLabel('Category')).toHaveValue(backTo);
    });

    test('Back in the same moment as a removed chip writes the address brings the search back (issue 40)', async ({ page }) => {
      await search(page).fill('author:ana');
      await expect(page).toHaveURL(/q=author%3Aana/);
      await expect.poll(() => titles(page)).toEqual(['Diary studies that last', 'Panel quality in 2026']);
      // The browser goes Back as the page pushes the chip's step, and lands before the router has
      // drawn the pushed address: the router then draws no change at all (it is back where it was).
      // CI met it by chance; here it is made certain: the entry before is put back and its popstate
      // sent in a microtask after the push, before React renders.
      await page.evaluate(() => {
        const push = history.pushState.bind(history);
        history.pushState = (...args: Parameters<History['pushState']>) => {
          history.pushState = push;
          const before = { state: history.state as unknown, url: location.href };
          push(...args);
          queueMicrotask(() => {
            history.replaceState(before.state, '', before.url);
            dispatchEvent(new PopStateEvent('popstate', { state: before.state }));
            document.documentElement.dataset.wentBack = String(args[2]);
          });
        };
      });
      await chips(page).getByRole('button', { name: 'Remove Author: ana' }).click();
      await expect(page.locator('html')).toHaveAttribute('data-went-back', '/forum');
      await expect(page).toHaveURL(/\/forum\?q=author%3Aana$/);
      await expect(search(page)).toHaveValue('author:ana');
      await expect(chips(page).getByRole('button', { name: 'Remove Author: ana' })).toBeVisible();
      await expect.poll(() => titles(page)).toEqual(['Diary studies that last', 'Panel quality in 2026']);
    });

    test('author names link to their member page', async ({ page }) => {
      const link = card(page, 'Coding open ends').getByRole('link', { name: 'Ben Okafor' });
      await expect(link).toHaveAttribute('href', /^\/members\/[0-9a-f]{16}$/);
      const href = (await link.getAttribute('href'))!;
      // Another post by the same author links to the same page; the post page's byline too.
      expect(await card(page, 'Diary studies that last').getByRole('link', { name: 'Ana Silva' }).getAttribute('href')).not.toBe(href);
      await card(page, 'Coding open ends').getByRole('link', { name: 'Coding open ends' }).click();
      await expect(page.getByRole('link', { name: 'Ben Okafor' })).toHaveAttribute('href', href);
    });
  });
}

test('the device’s search finds a post through one of its replies, and leads to that reply (issue 39)', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ title: 'Fieldwork in winter', content: 'Response rates dropped in December.' });
  await putPosts(page, [post], { reload: false });
  await putRows(page, 'replies', [
    makeReplyRow(post.id, 1, { content: 'We used a wombat mascot to lift responses.' }),
    makeReplyRow(post.id, 2, { content: 'A hidden wombat remark.', state: 'hidden' }),
  ]);
  await page.reload();
  await search(page).fill('wombat');
  await expect.poll(() => titles(page)).toEqual(['Fieldwork in winter']);
  const link = page.getByRole('link', { name: 'Found in a reply: open it' });
  await expect(link).toHaveCount(1);
  // Where it leads (followed by address: a click can land while the list re-renders for the index).
  const target = `/posts/${post.id}?reply=thread-${post.id}-1`;
  await expect(link).toHaveAttribute('href', target);
  await page.goto(target);
  await expect(page.getByText('We used a wombat mascot to lift responses.')).toBeVisible();
  // A word of the post itself lists it without the link.
  await page.goto('/forum');
  await search(page).fill('december');
  await expect.poll(() => titles(page)).toEqual(['Fieldwork in winter']);
  await expect(page.getByRole('link', { name: 'Found in a reply: open it' })).toHaveCount(0);
});

test('the search worker outlives a reopened /forum: the same worker answers, with what was written while no search page was open', async ({
  page,
  browser,
}) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [makePost({ title: 'Kept index panel' })]);
  await search(page).fill('kept index');
  await expect.poll(() => titles(page)).toEqual(['Kept index panel']);
  // This context's shared workers, as the browser lists them (other cases' contexts have their own).
  const cdp = await browser.newBrowserCDPSession();
  const sharedWorkers = async () => {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const context = targetInfos.find((target) => target.type === 'page' && target.url === page.url())?.browserContextId;
    return targetInfos
      .filter((target) => target.type === 'shared_worker' && target.browserContextId === context)
      .map((target) => target.targetId);
  };
  const before = await sharedWorkers();
  expect(before).toHaveLength(1);
  // A page without search; a post arrives there (written raw: no change number, no notice); then /forum again.
  await page.goto('/about');
  await putRows(page, 'posts', [makePost({ title: 'Kept index arrival' })]);
  await page.goto('/forum?q=kept%20index');
  await expect.poll(async () => (await titles(page)).sort()).toEqual(['Kept index arrival', 'Kept index panel']);
  expect(await sharedWorkers()).toEqual(before);
  await cdp.detach();
});
