import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, card, makePost, makeReplyRow, MEMBER, openForum, putPosts, putRows, storeSession, toast } from './support/app';

/** A member's forum showing a toast: Share's "Link copied" (the link goes to the clipboard). */
async function forumWithToast(page: Page, context: BrowserContext) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await storeSession(page, MEMBER);
  await openForum(page);
  await page
    .getByRole('article')
    .first()
    .getByRole('button', { name: /^Share/ })
    .click();
  const shown = toast(page, 'Link copied');
  await expect(shown).toBeVisible();
  return shown;
}

test('only one toast shows at a time: a new one replaces the old', async ({ page, context }) => {
  await forumWithToast(page, context);
  await page.getByRole('button', { name: 'New Post' }).click();
  await page.getByRole('dialog', { name: 'New Post' }).getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Missing Information', 'alert')).toBeVisible();
  await expect(page.locator('.app-toasts .toast')).toHaveCount(1);
});

test('a toast leaves after 5 seconds', async ({ page }) => {
  const start = new Date('2026-11-21T10:00:00Z');
  await page.clock.install({ time: start });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  // Stop the page's clock so that only runFor moves it.
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const error = toast(page, 'Error', 'alert');
  await expect(error).toBeVisible();
  await page.clock.runFor(4_900);
  await expect(error).toBeVisible();
  await page.clock.runFor(200);
  await expect(error).toBeHidden();
});

test('toasts appear inside live regions that were in the page before them', async ({ page }) => {
  await page.goto('/login');
  const polite = page.locator('.app-toasts [role="status"][aria-live="polite"]');
  const assertive = page.locator('.app-toasts [role="alert"][aria-live="assertive"]');
  await expect(polite).toHaveCount(1);
  await expect(assertive).toHaveCount(1);
  await expect(polite).toBeEmpty();
  await expect(assertive).toBeEmpty();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(assertive).toContainText('Please enter email and password.');
  await expect(polite).toBeEmpty();
});

/** True when two boxes overlap. */
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('after Reject on a desktop, the toast covers none of the next post’s controls (issue 40)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await storeSession(page, ADMIN);
  await openForum(page);
  await putPosts(page, [
    makePost({ id: 1_985_000_000_001, title: 'Queue one', status: 'pending', content: 'First. '.repeat(80) }),
    makePost({ id: 1_985_000_000_002, title: 'Queue two', status: 'pending', content: 'Second. '.repeat(80) }),
    makePost({ id: 1_985_000_000_003, title: 'Queue three', status: 'pending', content: 'Third. '.repeat(80) }),
  ]);
  await page.goto('/admin');
  // The second card's controls at the bottom of the screen, where a toast once sat.
  await card(page, 'Queue two').getByRole('button', { name: 'Reject' }).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 200));
  await card(page, 'Queue two').getByRole('button', { name: 'Reject' }).click();
  const shown = toast(page, 'Post rejected');
  await expect(shown).toBeVisible();
  const next = card(page, 'Queue three');
  await expect(next.getByRole('button', { name: 'Approve' })).toBeFocused();
  // (Placed once the focus has moved on: a frame after the review.)
  for (const control of [
    next.getByRole('button', { name: 'Approve' }),
    next.getByRole('button', { name: 'Reject' }),
    next.getByLabel('Reason'),
    next.getByRole('checkbox', { name: 'Select' }),
  ]) {
    await expect.poll(async () => overlap((await shown.boundingBox())!, (await control.boundingBox())!)).toBe(false);
  }
});

test('after Flag on a phone, the toast covers none of the reply’s row (issue 40)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ id: 1_985_000_000_010, title: 'Flag near the bottom', comments: 5, content: 'A long post. '.repeat(200) });
  await putPosts(page, [post], { reload: false });
  await putRows(page, 'replies', [
    makeReplyRow(post.id, 1, { content: 'A reply to flag' }),
    ...[2, 3, 4, 5].map((index) => makeReplyRow(post.id, index)),
  ]);
  await page.goto(`/posts/${post.id}`);
  const item = page.getByRole('list', { name: 'Replies' }).getByRole('listitem').filter({ hasText: 'A reply to flag' });
  const flag = item.getByRole('button', { name: 'Flag' });
  // The reply's row low on the screen, where a bottom toast covers it.
  await flag.evaluate((element) =>
    window.scrollBy({ top: element.getBoundingClientRect().bottom - (window.innerHeight - 40), behavior: 'instant' }),
  );
  await expect.poll(async () => ((box) => box.y + box.height)((await flag.boundingBox())!)).toBeGreaterThan(844 - 60);
  await flag.click();
  const dialog = page.getByRole('dialog', { name: 'Flag' });
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('button', { name: 'Send flag' }).click();
  const shown = toast(page, 'Thanks for flagging');
  await expect(shown).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // Placed a frame after the focus comes back to Flag (the dialog hands it back once its fade has ended),
  // so each control is measured against where the toast has settled, as in the review's case above.
  for (const button of await item.getByRole('button').all()) {
    await expect
      .poll(async () => {
        const box = await button.boundingBox();
        return box !== null && overlap((await shown.boundingBox())!, box);
      })
      .toBe(false);
  }
});

test('pressing a toast’s Undo never moves the toast: a press held over a few frames still undoes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await storeSession(page, ADMIN);
  await openForum(page);
  await putPosts(page, [makePost({ id: 1_985_000_000_020, title: 'Held press', status: 'pending' })]);
  await page.goto('/admin');
  await card(page, 'Held press').getByRole('checkbox', { name: 'Select' }).check();
  await page.getByRole('button', { name: 'Approve selected' }).click();
  const shown = toast(page, '1 post approved');
  const undo = shown.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeVisible();
  // Where the toast settles (placed a frame after it shows, then its entry animation), then a press as a person makes it:
  // down, some frames while the button takes the focus, up on the same spot.
  const frames = (count: number) =>
    page.evaluate(
      (n) =>
        new Promise<void>((resolve) => {
          const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
          step(n);
        }),
      count,
    );
  // Once the queue is done moving: the card gone and the focus moved on (to the page's main, as the
  // queue is empty), which places the toast again.
  await expect(card(page, 'Held press')).toHaveCount(0);
  await expect(page.locator('#main')).toBeFocused();
  await frames(3);
  await shown.locator('.toast').evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
  const before = (await undo.boundingBox())!;
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  await expect(undo).toBeFocused();
  await frames(3);
  expect((await undo.boundingBox())!.y).toBe(before.y);
  await page.mouse.up();
  await expect(toast(page, 'Review undone')).toBeVisible();
  await expect(card(page, 'Held press')).toBeVisible();
});

test('on a phone, a toast over an open dialog leaves its ✕ uncovered: the dialog can still be closed', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const shown = await forumWithToast(page, context);
  await page.locator('button.app-new-post:visible').click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  const close = dialog.getByRole('button', { name: 'Close' });
  await expect(close).toBeVisible();
  await expect(shown).toBeVisible();
  // What a press at the ✕'s centre reaches, once the dialog has slid in and while the toast still
  // shows (it leaves after 5 s, and then nothing covers the ✕): the ✕ itself, not the toast.
  await expect
    .poll(() =>
      close.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const reached = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return document.querySelector('.app-toasts .toast') ? reached === button : 'the toast left first';
      }),
    )
    .toBe(true);
  await close.click();
  await expect(dialog).toHaveCount(0);
});
