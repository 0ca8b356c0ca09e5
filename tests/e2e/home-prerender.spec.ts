import { expect, test, type Page } from '@playwright/test';
import { MEMBER, openForum, signIn } from './support/app';

// The home page is in the built page as markup (vite.config.ts's homePrerender): `/` shows it before
// (and without) JavaScript, the app takes over without a visible change, and no other route ever
// shows it, not even for a frame.

const HEADING = 'Where research professionals exchange what really works';

interface Frame {
  /** The prerendered page is rendered (in the page and not hidden). */
  prerender: boolean;
  /** The app's home page is rendered in #root. */
  live: boolean;
  /** Where the visible h1 of the home page is (-1 without one). */
  top: number;
}

/** Records, at every frame from the page's start (rAF runs right before the paint), what the page shows. */
async function watchFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const frames: Frame[] = [];
    (window as unknown as { __frames: Frame[] }).__frames = frames;
    const shown = (element: Element | null | undefined) => Boolean(element?.checkVisibility());
    const tick = () => {
      const prerender = document.getElementById('home-prerender');
      const live = document.querySelector('#root #hero-title');
      const heading = [prerender?.querySelector('#hero-title'), live].find(shown);
      frames.push({ prerender: shown(prerender), live: shown(live), top: heading ? heading.getBoundingClientRect().top : -1 });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

const frames = (page: Page) => page.evaluate(() => (window as unknown as { __frames: Frame[] }).__frames);

/** Holds the app's entry module until the returned function lets it through: the prerendered page is all there is. */
async function holdApp(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test.describe('the prerendered home page', () => {
  test('/ shows the home page with JavaScript disabled: heading, calls to action, header and footer', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Join Now' })).toHaveAttribute('href', '/login?mode=signup');
    await expect(main.getByRole('link', { name: 'About the community' })).toHaveAttribute('href', '/about');
    await expect(main.getByRole('link', { name: 'Create your account' })).toBeVisible();
    for (const title of ['Insightful Discussions', 'Contributor Recognition', 'Exclusive Research', 'Career Growth']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Forum' })).toHaveAttribute('href', '/forum');
    // A plain link: it leads to the page it names.
    await main.getByRole('link', { name: 'About the community' }).click();
    await expect(page).toHaveURL('/about');
    await context.close();
  });

  test('the app takes over / in one frame: never both pages, never neither, the heading does not move', async ({ page }) => {
    await watchFrames(page);
    await page.goto('/');
    await expect(page.locator('#root').getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect(page.locator('#home-prerender')).toHaveCount(0);
    // The live page has been painted (a few frames), then the record is read.
    await expect.poll(async () => (await frames(page)).filter((frame) => frame.live).length).toBeGreaterThan(3);
    const seen = await frames(page);
    const painted = seen.slice(seen.findIndex((frame) => frame.prerender || frame.live));
    expect(painted.length).toBeGreaterThan(0);
    // The first painted frame is the prerendered page (it came before the app's JavaScript).
    expect(painted[0]!.prerender).toBe(true);
    expect(painted.filter((frame) => frame.prerender && frame.live)).toEqual([]);
    expect(painted.filter((frame) => !frame.prerender && !frame.live)).toEqual([]);
    expect(new Set(painted.map((frame) => frame.top)).size).toBe(1);
    // The page stays the app's: title, and the header's links work inside it.
    await expect(page).toHaveTitle('Insight Exchange: the community for market research professionals');
    await page.getByRole('banner').getByRole('link', { name: 'About Us' }).click();
    await expect(page.getByRole('heading', { name: /Mission/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: HEADING })).toHaveCount(0);
  });

  test('on a phone, its Menu works before the app takes over, and the app keeps the menu open and focused', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const release = await holdApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    const prerendered = page.locator('#home-prerender').getByRole('banner');
    await expect(prerendered.getByRole('link', { name: 'About Us' })).toBeHidden();
    await prerendered.getByRole('button', { name: 'Menu' }).click();
    await expect(prerendered.getByRole('link', { name: 'About Us' })).toBeVisible();
    await expect(prerendered.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
    await prerendered.getByRole('button', { name: 'Menu' }).click();
    await expect(prerendered.getByRole('link', { name: 'About Us' })).toBeHidden();
    await prerendered.getByRole('button', { name: 'Menu' }).click();
    await expect(prerendered.getByRole('link', { name: 'About Us' })).toBeVisible();
    await expect(page.locator('#root')).toBeEmpty();

    release();
    await expect(page.locator('#home-prerender')).toHaveCount(0);
    const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await expect(page.getByRole('banner').getByRole('link', { name: 'About Us' })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeFocused();
    await menu.click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'About Us' })).toBeHidden();
  });

  test('its social links stay where they are before the app takes over, as they do after', async ({ page }) => {
    const release = await holdApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    const socials = () => page.getByRole('contentinfo').getByRole('list', { name: 'Social media' }).getByRole('link');
    await socials().first().click();
    await expect(page.locator('#root')).toBeEmpty();
    expect(page.url()).toBe(new URL('/', page.url()).href);

    release();
    await expect(page.locator('#home-prerender')).toHaveCount(0);
    await socials().last().click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(page.url()).toBe(new URL('/', page.url()).href);
  });

  for (const path of ['/about', '/login', '/forum', '/no/such/page']) {
    test(`${path} never shows the home markup, not even for a frame`, async ({ page }) => {
      await watchFrames(page);
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page.locator('#home-prerender')).toHaveCount(0);
      await expect.poll(async () => (await frames(page)).length).toBeGreaterThan(3);
      const seen = await frames(page);
      expect(seen.filter((frame) => frame.prerender)).toEqual([]);
      if (path === '/no/such/page') {
        // Sent to / by the app: its own home page, never the prerendered one.
        await expect(page).toHaveURL('/');
        await expect(page.locator('#root').getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
      } else {
        expect(seen.filter((frame) => frame.live)).toEqual([]);
      }
    });
  }

  test("a member's /forum never shows the home markup", async ({ page }) => {
    await signIn(page, MEMBER);
    await openForum(page);
    await watchFrames(page);
    await page.reload();
    await expect(page.getByRole('article').first()).toBeVisible();
    await expect.poll(async () => (await frames(page)).length).toBeGreaterThan(3);
    expect((await frames(page)).filter((frame) => frame.prerender || frame.live)).toEqual([]);
    await expect(page.locator('#home-prerender')).toHaveCount(0);
  });
});
