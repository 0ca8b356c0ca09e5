import { expect, test, type Page } from '@playwright/test';
import { MEMBER, makePost, makeReplyRow, openForum, putPosts, putRows, signIn } from './support/app';
import { waitForServiceWorker } from './support/service-worker';

// A post's page the member read before is painted from its snapshot before the JavaScript boots
// (as the forum's first page is): with the screen's own stylesheet, handed over to the live page
// without moving, only at its own address, never stale, never after a sign-out.

test.use({ serviceWorkers: 'allow' });

const snapshotUrl = (id: number) => `/__forum-snapshot/posts/${id}`;

const storedSnapshot = (page: Page, id: number) =>
  page.evaluate(async (url) => {
    const response = await caches.match(url, { cacheName: 'insight-forum-snapshot' });
    return response ? ((await response.json()) as { owner: string; token: string; html: string; styles: string[] }) : null;
  }, snapshotUrl(id));

/** Records whether the snapshot was painted on the next load, and where its first reply was in that frame. */
async function watchSnapshot(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { painted: false, replyTop: -1, app: true };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      const view = document.getElementById('forum-snapshot');
      if (!view || seen.painted) return;
      seen.painted = true;
      requestAnimationFrame(() => {
        const reply = view.querySelector('.app-replies > li');
        if (reply && view.isConnected) seen.replyTop = reply.getBoundingClientRect().top;
        seen.app = Boolean(document.querySelector('#root > *'));
      });
    }).observe(document, { childList: true, subtree: true });
  });
}

const seen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __seen: { painted: boolean; replyTop: number; app: boolean } }).__seen);

/** The first post on the forum, given `count` replies of its own; returns its id. */
async function postWithReplies(page: Page, count: number): Promise<number> {
  await openForum(page);
  const href = await page.getByRole('article').first().locator('a[href^="/posts/"]').first().getAttribute('href');
  const id = Number(href!.split('/').pop());
  await putRows(
    page,
    'replies',
    Array.from({ length: count }, (_, index) =>
      makeReplyRow(id, index + 1, { id: `snap-${id}-${index + 1}`, content: `Snapshot reply ${index + 1}` }),
    ),
  );
  return id;
}

/** Reads the post's page until its snapshot is stored for the member. */
async function readPost(page: Page, id: number): Promise<void> {
  await page.goto(`/posts/${id}`);
  await expect(page.locator('#root .app-replies > li').first()).toBeVisible();
  await expect.poll(() => storedSnapshot(page, id).then((snapshot) => snapshot?.owner), { timeout: 30_000 }).toBe(MEMBER);
}

test.beforeEach(async ({ page }) => {
  await signIn(page, MEMBER);
  await waitForServiceWorker(page);
});

test('paints a post read before from its snapshot, with its own stylesheet, then the live page takes its place without moving', async ({
  page,
}) => {
  const id = await postWithReplies(page, 3);
  await readPost(page, id);
  const snapshot = (await storedSnapshot(page, id))!;
  expect(snapshot.html).toContain('Snapshot reply 1');
  // The screen's own stylesheet travels with it; nothing typed does.
  expect(snapshot.styles.some((href) => /^\/assets\/post-[\w-]+\.css$/.test(href))).toBe(true);

  await watchSnapshot(page);
  const response = await page.goto(`/posts/${id}`);
  const body = await response!.text();
  expect(response!.fromServiceWorker()).toBe(true);
  expect(body).toContain(`<template id="forum-snapshot-template" data-token="${snapshot.token}"`);
  // The service worker links the screen's stylesheets in the head, so the first frame waits for them.
  // (Read from the page served: the snapshot may have been taken again since, e.g. after the view was counted.)
  const head = body.slice(0, body.indexOf('</head>'));
  const served = /data-styles="([^"]*)"/.exec(body)![1]!.split(' ');
  expect(served.some((href) => /^\/assets\/post-[\w-]+\.css$/.test(href))).toBe(true);
  for (const href of served) expect(head).toContain(`<link rel="stylesheet" crossorigin href="${href}">`);

  const liveReply = page.locator('#root .app-replies > li').first();
  await expect(liveReply).toBeVisible();
  await expect(page.locator('#forum-snapshot')).toHaveCount(0);
  const painted = await seen(page);
  expect(painted.painted).toBe(true);
  // Painted before the app rendered anything.
  expect(painted.app).toBe(false);
  const liveTop = await liveReply.evaluate((reply) => reply.getBoundingClientRect().top);
  expect(painted.replyTop).toBeGreaterThan(0);
  expect(Math.abs(painted.replyTop - liveTop)).toBeLessThanOrEqual(1);
  await expect(page.locator('html')).not.toHaveClass(/snapshot-on/);
  // The app's own load of the stylesheet found it linked: one tag each.
  for (const href of served) await expect(page.locator(`link[rel="stylesheet"][href$="${href}"]`)).toHaveCount(1);
});

test("is painted only at the post's own address: not for another page of replies, nor a link to a reply", async ({ page }) => {
  const id = await postWithReplies(page, 25);
  await readPost(page, id);
  await watchSnapshot(page);
  for (const address of [`/posts/${id}?page=2`, `/posts/${id}#reply-snap-${id}-3`]) {
    await page.goto(address);
    await expect(page.locator('#root .app-replies > li').first()).toBeVisible();
    expect((await seen(page)).painted, address).toBe(false);
  }
  await page.goto(`/posts/${id}`);
  await expect(page.locator('#root .app-replies > li').first()).toBeVisible();
  expect((await seen(page)).painted).toBe(true);
});

test("text that reads as a replacement pattern ($& $` $') is painted as text, and the app mounts once", async ({ page }) => {
  const id = await postWithReplies(page, 0);
  const tricky = "Prices: $& and $` and $' and $$ stay text";
  await putRows(page, 'replies', [makeReplyRow(id, 1, { id: `snap-${id}-tricky`, content: tricky })]);
  await readPost(page, id);
  expect((await storedSnapshot(page, id))!.html).toContain('$&amp; and $` and $');
  await watchSnapshot(page);
  await page.goto(`/posts/${id}`);
  await expect(page.locator('#root .app-replies > li').filter({ hasText: tricky })).toBeVisible();
  expect((await seen(page)).painted).toBe(true);
  expect(await page.locator('[id="root"]').count()).toBe(1);
  await expect(page.locator('#forum-snapshot')).toHaveCount(0);
});

test('a post deleted on its page takes its snapshot with it', async ({ page }) => {
  await openForum(page);
  const mine = makePost({ title: 'A post of mine with a snapshot', authorEmail: MEMBER, author: 'Jane Doe' });
  await putPosts(page, [mine]);
  await putRows(page, 'replies', [makeReplyRow(mine.id, 1, { id: `snap-${mine.id}-1` })]);
  await readPost(page, mine.id);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete post?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL('/forum');
  await expect.poll(() => storedSnapshot(page, mine.id), { timeout: 30_000 }).toBeNull();
});

test('a change made away from the post removes its snapshot; on the post, the page stores a fresh one; sign-out removes all', async ({
  page,
}) => {
  const id = await postWithReplies(page, 2);
  await readPost(page, id);

  // On the post's page, a like rewrites its snapshot with the new count.
  const likes = page.locator('#root .app-post-full').getByRole('button', { name: /^Like/ });
  const before = (await storedSnapshot(page, id))!.html;
  await likes.click();
  await expect.poll(async () => (await storedSnapshot(page, id))?.html ?? '', { timeout: 30_000 }).not.toBe(before);
  expect(await storedSnapshot(page, id)).not.toBeNull();

  // On the forum, a like of the same post changes it: the post's snapshot goes (never a stale paint).
  await openForum(page);
  await page.getByRole('article').first().getByRole('button', { name: /^Like/ }).click();
  await expect.poll(() => storedSnapshot(page, id), { timeout: 30_000 }).toBeNull();

  // Read again, then signed out: gone, and not painted for the next session.
  await readPost(page, id);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
  await expect.poll(() => storedSnapshot(page, id)).toBeNull();
  await watchSnapshot(page);
  await page.goto(`/posts/${id}`);
  await expect(page).toHaveURL('/login');
  expect((await seen(page)).painted).toBe(false);
});
