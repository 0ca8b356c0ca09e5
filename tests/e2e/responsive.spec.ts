import { expect, test } from '@playwright/test';
import { ADMIN, makePost, offerInstall, openForum, putPosts, storeSession } from './support/app';
import { expectHeaderInOneRow } from './support/header';

const routes = ['/', '/about', '/login', '/forum', '/profile', '/admin'];

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('no page scrolls sideways, even with very long text', async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    const long = 'Unbrokenwordwithoutspaces'.repeat(40);
    await putPosts(page, [
      makePost({ title: long, content: long, author: long, category: long, tags: [long] }),
      makePost({ title: long, status: 'pending', authorEmail: ADMIN }),
    ]);
    for (const path of routes) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test('a name beside badges shows whole in My Posts and the admin queue; the badges take a line of their own (issue 40)', async ({
    page,
  }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    await putPosts(page, [
      makePost({
        id: 1_990_200_000_001,
        title: 'Mine, pending',
        status: 'pending',
        author: 'Alice Montgomery',
        authorEmail: ADMIN,
        category: 'Best Practices',
        isTopContributor: true,
        resubmitted: true,
      }),
    ]);
    for (const path of ['/profile', '/admin']) {
      await page.goto(path);
      const name = page.getByRole('article', { name: 'Mine, pending' }).locator('.app-post-author');
      await expect(name).toHaveText('Alice Montgomery');
      const cut = await name.evaluate(
        (element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight + 1,
      );
      expect(cut, path).toBe(false);
    }
  });

  test('the admin screen: its five tabs share one row that scrolls within itself, and no keyboard hint shows on a touch screen (issues 40, 61)', async ({
    page,
  }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    await putPosts(page, [makePost({ id: 1_990_300_000_001, title: 'Waiting on a phone', status: 'pending' })]);
    await page.goto('/admin');
    await expect(page.getByRole('article', { name: 'Waiting on a phone' })).toBeVisible();
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveCount(5);
    const tops = await tabs.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    expect(new Set(tops).size, `tab tops ${tops.join(', ')}`).toBe(1);
    // The page itself never scrolls sideways; the last tab is reached by scrolling the row.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('tab', { name: 'Categories' }).click();
    await expect(page.getByRole('tab', { name: 'Categories' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Categories' })).toBeInViewport();
    await expect(page.getByText('Press ? for keyboard shortcuts')).toBeHidden();
    // Opened from its address, the chosen tab is whole in the row (the row scrolled to it), and the
    // page did not scroll for it.
    await page.goto('/admin?tab=groups');
    await expect(page.getByRole('tab', { name: 'Groups' })).toHaveAttribute('aria-selected', 'true');
    // (Whole but for a tab's last pixel row, which Bootstrap's tabs lay over the row's border: 0.97.)
    await expect(page.getByRole('tab', { name: 'Groups' })).toBeInViewport({ ratio: 0.95 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('the headers collapse into a menu', async ({ page }) => {
    await page.goto('/');
    // The app's header, not the prerendered page's (its Menu works once the app has taken over).
    await expect(page.locator('#home-prerender')).toHaveCount(0);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'About Us' })).toBeHidden();
    await header.getByRole('button', { name: 'Menu' }).click();
    await expect(header.getByRole('link', { name: 'About Us' })).toBeVisible();
    await header.getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL('/about');
    await expect(header.getByRole('link', { name: 'About Us' })).toBeHidden();

    await storeSession(page, ADMIN);
    await page.goto('/forum');
    await expect(header.getByRole('button', { name: 'New Post' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Profile' })).toBeHidden();
    await header.getByRole('button', { name: 'Menu' }).click();
    await expect(header.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
  });

  test('the forum sidebar moves below the list', async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    const lastPost = await page.getByRole('article').last().boundingBox();
    const sidebar = await page.getByRole('complementary', { name: 'Community highlights' }).boundingBox();
    expect(sidebar!.y).toBeGreaterThan(lastPost!.y + lastPost!.height);
  });
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 820, height: 1180 } });

  test('an admin’s header is one row (issue 59): brand, links, status, bell, New Post and Log out', async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    await putPosts(page, [makePost({ status: 'pending', title: 'Waiting for review' })]);
    await expect(page.getByRole('banner').getByRole('link', { name: /^Admin/ })).toContainText('1');
    await expectHeaderInOneRow(page);
    // With Install offered and the device offline beside it (a new user's admin header wrapped so at
    // 820 px): Install is its icon there, and the row holds.
    await offerInstall(page);
    const install = page.getByRole('banner').getByRole('button', { name: 'Install' });
    await expect(install).toBeVisible();
    await page.context().setOffline(true);
    await expect(
      page
        .getByRole('banner')
        .getByRole('status')
        .filter({ hasText: /offline/i }),
    ).toBeVisible();
    await expectHeaderInOneRow(page);
    const row = (await page.getByRole('button', { name: 'Log out' }).boundingBox())!;
    const installBox = (await install.boundingBox())!;
    expect(Math.abs(installBox.y + installBox.height / 2 - (row.y + row.height / 2))).toBeLessThan(6);
  });

  test("a post's page lines up with the header (issue 40)", async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    const post = makePost({ id: 1_990_300_000_002, title: 'Lined up on a tablet' });
    await putPosts(page, [post]);
    await page.goto(`/posts/${post.id}`);
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    const header = (await page.getByRole('banner').locator('.container').first().boundingBox())!;
    const body = (await page.locator('.app-post-page').boundingBox())!;
    expect(Math.round(body.x)).toBe(Math.round(header.x));
    expect(Math.round(body.width)).toBe(Math.round(header.width));
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('an admin’s header is one row (issue 59)', async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    await expectHeaderInOneRow(page);
  });

  test('the forum sidebar sits beside the list', async ({ page }) => {
    await storeSession(page, ADMIN);
    await openForum(page);
    const firstPost = await page.getByRole('article').first().boundingBox();
    const sidebar = await page.getByRole('complementary', { name: 'Community highlights' }).boundingBox();
    expect(sidebar!.x).toBeGreaterThan(firstPost!.x + firstPost!.width);
    expect(sidebar!.y).toBeLessThan(firstPost!.y + firstPost!.height);
  });
});
