import { expect, test, type Page } from '@playwright/test';
import { ADMIN, makePost, MEMBER, openForum, putPosts, signIn, storeSession } from './support/app';

test.describe('public pages', () => {
  test('the header links Home, About Us, Login and Join Now', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    for (const name of ['Home', 'About Us', 'Login', 'Join Now']) {
      await expect(header.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(header.getByRole('link', { name: 'Go to Forum' })).toHaveCount(0);
    await header.getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL('/about');
    await header.getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await header.getByRole('link', { name: 'Join Now' }).click();
    await expect(page.getByRole('heading', { name: 'Create Account', exact: true })).toBeVisible();
  });

  test('the footer has platform links, unlinked legal texts and three labelled social links', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['About Us', 'Forum', 'Join Now']) await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    for (const text of ['Privacy Policy', 'Terms of Service']) {
      await expect(footer.getByText(text, { exact: true })).toBeVisible();
      await expect(footer.getByRole('link', { name: text })).toHaveCount(0);
    }
    const socials = footer.getByRole('list', { name: 'Social media' }).getByRole('link');
    await expect(socials).toHaveCount(3);
    for (const link of await socials.all()) await expect(link).toHaveAttribute('aria-label', /Insight Exchange on/);
    await socials.first().click();
    await expect(page).toHaveURL('/');
  });

  test('home shows the hero, the four feature cards and calls to action to /login and /about', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const title of ['Insightful Discussions', 'Contributor Recognition', 'Exclusive Research', 'Career Growth']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Join Now' })).toHaveAttribute('href', '/login?mode=signup');
    await expect(main.getByRole('link', { name: 'About the community' })).toHaveAttribute('href', '/about');
    await expect(page).toHaveTitle(/Insight Exchange/);
  });

  test('about has mission, community and vision sections', async ({ page }) => {
    await page.goto('/about');
    for (const name of [/Mission/, /Community/, /Vision/]) await expect(page.getByRole('heading', { name })).toBeVisible();
  });

  test('an unknown path redirects to /', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: 'Insightful Discussions' })).toBeVisible();
  });
});

test.describe('guards', () => {
  for (const path of ['/forum', '/profile', '/admin']) {
    test(`a visitor opening ${path} is sent to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL('/login');
      await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    });
  }

  test('a member opening /admin is sent to /, and sees no Admin link', async ({ page }) => {
    await storeSession(page, MEMBER);
    await page.goto('/forum');
    await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page).toHaveURL('/');
  });

  test('an admin sees the Admin link and the Pending Posts page', async ({ page }) => {
    await storeSession(page, ADMIN);
    await page.goto('/forum');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).click();
    await expect(page).toHaveURL('/admin');
    await expect(page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
  });

  test('signed in, the public header offers Go to Forum instead of Login and Join Now; the footer has no Join Now either', async ({
    page,
  }) => {
    await signIn(page, MEMBER);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Go to Forum' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Join Now' })).toHaveCount(0);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Forum', exact: true })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Join Now' })).toHaveCount(0);
    await header.getByRole('link', { name: 'Go to Forum' }).click();
    await expect(page).toHaveURL('/forum');
  });

  test('signed in, the forum opens from home with no Loading... in between: its code came while the member signed in', async ({ page }) => {
    await signIn(page, MEMBER);
    // The data is ready (a member's screen was shown, the forum never), then the member signs out and in again.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/login');
    await page.getByLabel('Email').fill(MEMBER);
    await page.getByLabel('Password').fill('pass-1234');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL('/');
    // Meanwhile the forum's code is fetched and evaluated (the same module, imported here too).
    const forumCode = () =>
      page.evaluate(
        () => performance.getEntriesByType('resource').find((entry) => /\/assets\/forum-[\w-]+\.js$/.test(entry.name))?.name ?? '',
      );
    await expect.poll(forumCode).toMatch(/forum-/);
    await page.evaluate((url) => import(url), await forumCode());
    await page.evaluate(() => {
      const seen = { loading: false };
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('#main .app-loading')?.textContent === 'Loading...') seen.loading = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('banner').getByRole('link', { name: 'Go to Forum' }).click();
    await expect(page.getByRole('heading', { name: 'Community Forum' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { seen: { loading: boolean } }).seen.loading)).toBe(false);
  });

  test('the protected header has Forum, Profile, New Post and the Log out icon', async ({ page }) => {
    await storeSession(page, MEMBER);
    await page.goto('/profile');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Forum', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
    await expect(header.getByRole('button', { name: 'New Post' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
  });
});

test('a screen whose code is gone after a deploy shows our own screen with Reload, not the router default', async ({ page }) => {
  // The about screen's code cannot be fetched from the start (nothing fetches it before the click).
  await page.route(/\/assets\/about-[^/]*\.js$/, (route) => route.abort());
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // The app has taken over from the prerendered home page: its router handles the click.
  await expect(page.locator('#home-prerender')).toHaveCount(0);
  await page.getByRole('banner').getByRole('link', { name: 'About Us' }).click();
  await expect(page.getByRole('heading', { name: 'A new version is available' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  // Back, the crash screen goes and the page it left shows again.
  await page.goBack();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'A new version is available' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
});

/** A member's forum on a phone, 20 posts titled `${title} 0..19`, scrolled past the sixth: returns where it was left. */
async function scrolledForum(page: Page, title: string): Promise<number> {
  await page.setViewportSize({ width: 390, height: 700 });
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(
    page,
    Array.from({ length: 20 }, (_, index) => makePost({ id: 1_810_000_000_000 + index, title: `${title} ${index}` })),
  );
  await page
    .getByRole('article')
    .filter({ hasText: `${title} 5` })
    .scrollIntoViewIfNeeded();
  // Scrolled on, and its scroll event dispatched: the app keeps the place its scroll events recorded
  // (app/scroll-memory.tsx), and a page left before that frame keeps the place before it.
  const left = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        addEventListener('scroll', () => resolve(window.scrollY), { once: true });
        window.scrollBy(0, 200);
      }),
  );
  expect(left).toBeGreaterThan(1000);
  return left;
}

/** Waits until the page is scrolled to `y` (give or take a pixel). */
async function scrolledTo(page: Page, y: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 2);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 2);
}

test('a new screen opens at the top, and Back returns the forum to where it was scrolled', async ({ page }) => {
  const left = await scrolledForum(page, 'Scrolled post');
  await page.getByRole('article').filter({ hasText: 'Scrolled post 5' }).getByRole('link', { name: 'Scrolled post 5' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scrolled post 5' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL('/forum');
  await scrolledTo(page, left);
});

test('a reload keeps where the forum was scrolled; loading another address opens it at its top, Back returns to the forum', async ({
  page,
}) => {
  const left = await scrolledForum(page, 'Reloaded post');
  await page.reload();
  await scrolledTo(page, left);

  // Typed into the address bar (a new entry): Profile opens at its top, never at the forum's place.
  await page.addInitScript(() => {
    const seen = { max: 0 };
    (window as unknown as { __scroll: typeof seen }).__scroll = seen;
    addEventListener('scroll', () => (seen.max = Math.max(seen.max, window.scrollY)), { passive: true });
  });
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Storage on this device' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Saved Posts' }).getByText('No saved posts yet.')).toBeVisible();
  // Two frames with the whole page there: a restore would have scrolled by now.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  // The page can scroll (a restore would show), and never did.
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(200);
  expect(await page.evaluate(() => (window as unknown as { __scroll: { max: number } }).__scroll.max)).toBe(0);

  // Back to the forum's entry: its place again.
  await page.goBack();
  await expect(page).toHaveURL('/forum');
  await scrolledTo(page, left);
});

test('card icons stay visible in forced-colors (high contrast) mode', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.emulateMedia({ forcedColors: 'active' });
  await openForum(page);
  // Forced colors repaint backgrounds in the page's Canvas colour: a masked icon painted so vanishes.
  const colours = await page
    .locator('.app-like')
    .first()
    .evaluate((element) => ({
      icon: getComputedStyle(element, '::before').backgroundColor,
      card: getComputedStyle(element.closest('.card')!).backgroundColor,
    }));
  expect(colours.icon).not.toBe(colours.card);
  expect(colours.icon).not.toBe('rgba(0, 0, 0, 0)');
});
