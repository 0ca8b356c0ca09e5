// The forum's first frame on a new browser (issue 64, item 2; src/db/storage/first-frame.ts): a member
// signs in on a browser that holds no database yet and opens the forum. Its first posts (the sample
// posts, painted with the live forum's own cards) are on screen before the data layer's code (the
// forum's chunk, with Dexie) or the forum's screen is asked for; the live forum then takes the
// frame's place without moving a card, with the same posts under the same addresses.
import { expect, test, type Page } from '@playwright/test';
import { MEMBER, signIn } from './support/app';

declare global {
  interface Window {
    __firstArticle?: {
      at: number;
      top: number;
      left: number;
      width: number;
      height: number;
      framed: boolean;
      title: string;
      href: string;
      count: string;
    };
    /** When the first frame left the page: whether the live list's posts were in it then (not the 10 s fallback's empty page). */
    __frameLeft?: { liveArticle: boolean };
  }
}

/** The data layer's code and the forum's screen: never asked for before the first frame is painted. */
const LATER = /\/assets\/(forum-core|forum|protected-area)-[\w-]{8}\.js$/;

/** Watches the first post in the page (when, where, whether the first frame's, its title, link and the list's count), then the frame's going. */
function watchFirstArticle(): void {
  const observer = new MutationObserver(() => {
    if (!window.__firstArticle) {
      const article = document.querySelector('#root article');
      if (!article) return;
      const box = article.getBoundingClientRect();
      window.__firstArticle = {
        at: performance.now(),
        top: box.top,
        left: box.left,
        width: box.width,
        height: box.height,
        framed: article.closest('.app-first-frame') !== null,
        title: article.querySelector('h3')?.textContent ?? '',
        href: article.querySelector('h3 a')?.getAttribute('href') ?? '',
        count: document.querySelector('.app-results')?.textContent ?? '',
      };
    }
    if (window.__firstArticle.framed && !document.querySelector('.app-first-frame')) {
      observer.disconnect();
      window.__frameLeft = { liveArticle: document.querySelector('#root > .app-page article') !== null };
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Signs in on this browser, opens the forum from Home, and waits for the live forum to take the first
 * frame's place; returns what the frame painted. The live list's posts were in the page when the frame
 * went (not the 10 s fallback's).
 */
async function signInAndOpenForum(page: Page): Promise<NonNullable<Window['__firstArticle']>> {
  await page.addInitScript(watchFirstArticle);
  await signIn(page, MEMBER);
  await page.getByRole('link', { name: 'Go to Forum' }).first().click();
  await page.waitForFunction(() => window.__frameLeft !== undefined);
  expect(await page.evaluate(() => window.__frameLeft)).toEqual({ liveArticle: true });
  await expect(page.locator('html')).not.toHaveClass(/first-frame-on/);
  const painted = (await page.evaluate(() => window.__firstArticle))!;
  expect(painted.framed).toBe(true);
  return painted;
}

test('a new browser’s first forum paints its posts before the data layer’s code, and the live forum takes over without a move', async ({
  page,
}) => {
  const painted = await signInAndOpenForum(page);
  const first = page.getByRole('article').first();
  await expect(first).toBeVisible();

  const asked = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => ({ name: new URL(entry.name).pathname, at: entry.startTime })),
  );
  const later = asked.filter((entry) => LATER.test(entry.name));
  // All three came, each after the first posts were in the page.
  expect(later.map((entry) => entry.name.replace(/-[\w-]{8}\.js$/, '')).sort()).toEqual([
    '/assets/forum',
    '/assets/forum-core',
    '/assets/protected-area',
  ]);
  for (const entry of later) expect(entry.at, entry.name).toBeGreaterThan(painted.at);

  // Not a pixel moved: the live first card stands where the frame's stood.
  const box = (await first.boundingBox())!;
  expect(Math.abs(box.y - painted.top)).toBeLessThan(1);
  expect(Math.abs(box.x - painted.left)).toBeLessThan(1);
  expect(Math.abs(box.width - painted.width)).toBeLessThan(1);
  expect(Math.abs(box.height - painted.height)).toBeLessThan(1);

  // The same posts, at the same addresses: the live first card is the frame's, and opens its post.
  const title = (await first.getByRole('heading').textContent())!;
  expect(title).toBe(painted.title);
  expect(await first.getByRole('link', { name: title }).getAttribute('href')).toBe(painted.href);
  await first.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const like = page.getByRole('article', { name: title }).getByRole('button', { name: /^Like/ });
  const before = Number(await like.textContent());
  await like.click();
  await expect(like).toHaveText(String(before + 1));
});

test('a browser an older build left its posts on: the first frame shows them, and the live forum (which brings them in) takes over without a move', async ({
  page,
}) => {
  // The older build's copy, before the app's first script: from a static page of the same origin.
  await page.goto('/robots.txt');
  const older = Array.from({ length: 200 }, (_, i) => ({
    id: 1_600_000_000_000 + i * 1_000,
    title: `Older post ${i}`,
    content: `Written by the older build, row ${i}.`,
    category: 'Quantitative',
    author: 'Older Build Author',
    authorEmail: 'older@example.com',
    authorRole: 'user',
    likes: i % 7,
    comments: 3,
    views: i % 13,
    date: '3 days ago',
    isTopContributor: false,
    tags: ['older'],
    status: i % 10 === 0 ? 'pending' : 'approved',
  }));
  await page.evaluate((value) => localStorage.setItem('posts', value), JSON.stringify(older));
  const painted = await signInAndOpenForum(page);
  expect(painted).toMatchObject({ title: 'Older post 199', count: '180 posts' });
  // The live list: the same count, the same first post, where the frame's stood.
  await expect(page.locator('.app-results')).toHaveText('180 posts');
  const first = page.getByRole('article').first();
  await expect(first.getByRole('heading')).toHaveText('Older post 199');
  expect(await first.getByRole('link', { name: 'Older post 199' }).getAttribute('href')).toBe(painted.href);
  const box = (await first.boundingBox())!;
  expect(Math.abs(box.y - painted.top)).toBeLessThan(1);
  expect(Math.abs(box.height - painted.height)).toBeLessThan(1);
});
