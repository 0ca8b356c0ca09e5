import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { ADMIN, makePost, MEMBER, openForum, putPosts, signIn, storeSession, toast } from './support/app';

/** Profile's theme buttons are disabled (faded) until the stored choice is read: judge them after. */
async function profileSettled(page: Page, path: string) {
  if (path === '/profile') await expect(page.getByRole('radio', { name: 'System' })).toBeEnabled();
}

for (const width of [390, 1280]) {
  test.describe(`axe at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('public pages, as a visitor', async ({ page }) => {
      for (const path of ['/', '/about', '/login', '/login?mode=signup']) {
        await page.goto(path);
        await expect(page.getByRole('main')).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoSeriousViolations(page, path);
      }
    });

    test('every route, as a member', async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, [
        makePost({ title: 'Mine, pending', authorEmail: MEMBER, status: 'pending' }),
        makePost({ title: 'Mine, rejected', authorEmail: MEMBER, status: 'rejected' }),
      ]);
      for (const path of ['/', '/about', '/forum', '/profile']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        if (path !== '/' && path !== '/about') await expect(page.getByRole('article').first()).toBeVisible();
        await profileSettled(page, path);
        await expectNoSeriousViolations(page, path);
      }
      await page.goto('/forum');
      await page.getByLabel('Search posts').fill('no such thing at all');
      await expect(page.getByText('No posts found')).toBeVisible();
      await expectNoSeriousViolations(page, 'forum empty state');
      await page.getByRole('button', { name: 'New Post' }).click();
      await expect(page.getByRole('dialog', { name: 'New Post' })).toBeVisible();
      await expectNoSeriousViolations(page, 'New Post modal');
    });

    test("a post's page with its reply box, edit mode and delete dialog, and 'Post not available'", async ({ page }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
      const replies = page.getByRole('list', { name: 'Replies' });
      await expect(replies).toBeVisible();
      await page.getByRole('textbox', { name: 'Your reply' }).fill('A reply of mine');
      await page.getByRole('button', { name: 'Post Reply' }).click();
      const mine = replies.getByRole('listitem').filter({ hasText: 'A reply of mine' });
      await expect(mine).toBeVisible();
      await replies.getByRole('listitem').first().getByRole('button', { name: 'Quote' }).click();
      await expect(page.getByRole('button', { name: 'Remove quote' })).toBeVisible();
      await expectNoSeriousViolations(page, 'post page');
      await mine.getByRole('button', { name: 'Edit' }).click();
      await expect(page.getByRole('textbox', { name: 'Edit reply' })).toBeFocused();
      await expectNoSeriousViolations(page, 'editing a reply');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await mine.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete reply?' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Delete reply? dialog');
      await page.goto('/posts/999');
      await expect(page.getByRole('heading', { level: 1, name: 'Post not available' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Post not available');
    });

    const rich = () =>
      makePost({
        title: 'Rich and mine',
        authorEmail: MEMBER,
        author: 'Jane Doe',
        content:
          '## Notes\n\n**Bold**, *italic*, `code`, [a link](https://example.com)\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```\ncode block\n```\n\n> quote\n\n- one\n1. two',
      });

    test('writing: a rich post with the reply preview, New Post with Preview and Formatting help', async ({ page }) => {
      const post = rich();
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, [post]);
      await page.goto(`/posts/${post.id}`);
      await expect(page.locator('.app-post-body.app-markdown:not(.is-plain)')).toBeVisible();
      await page.locator('form.app-reply-box').getByRole('tab', { name: 'Preview' }).click();
      await expectNoSeriousViolations(page, 'a rich post with the reply preview');
      await page.getByRole('button', { name: 'New Post' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Post' });
      await dialog.getByLabel('Content').fill('**Bold** and a | table |');
      await dialog.getByRole('tab', { name: 'Preview' }).click();
      await dialog.getByRole('button', { name: 'Formatting help' }).click();
      await expect(dialog.getByRole('region', { name: 'Formatting help' })).toBeVisible();
      await expectNoSeriousViolations(page, 'New Post with Preview and Formatting help');
    });

    test('writing: Edit Post, Delete post?, the Undo toast, the queue with Resubmitted', async ({ page }) => {
      const post = rich();
      await storeSession(page, MEMBER);
      await openForum(page);
      await putPosts(page, [post, makePost({ title: 'Back for review', status: 'pending', resubmitted: true })]);
      await page.goto(`/posts/${post.id}`);
      await expect(page.locator('.app-post-body.app-markdown:not(.is-plain)')).toBeVisible();
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Post' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Edit Post');
      await page.getByRole('dialog', { name: 'Edit Post' }).getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Delete post?' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Delete post?');
      await page.getByRole('dialog', { name: 'Delete post?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.locator('.app-toasts').getByRole('button', { name: 'Undo' })).toBeVisible();
      await expectNoSeriousViolations(page, 'the Undo toast');
      // On a phone, Log out is in the collapsed menu.
      if (width < 768) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'Log out' }).click();
      await signIn(page, ADMIN);
      await page.goto('/admin');
      await expect(page.getByText('Resubmitted', { exact: true })).toBeVisible();
      await expectNoSeriousViolations(page, 'the queue with Resubmitted');
    });

    test('every route, as an admin', async ({ page }) => {
      await storeSession(page, ADMIN);
      await openForum(page);
      await putPosts(page, [makePost({ title: 'Waiting', status: 'pending' })]);
      for (const path of ['/forum', '/profile', '/admin']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await profileSettled(page, path);
        await expectNoSeriousViolations(page, path);
      }
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(page.getByText('All caught up!')).toBeVisible();
      // The toast comes once the approval has committed, which can be after the empty state shows: its
      // fade-in is waited out only once it is there (CI's axe once judged its text halfway in).
      await expect(toast(page, 'Post approved')).toBeVisible();
      await expectNoSeriousViolations(page, 'admin empty state with a toast');
    });

    test('moderation screens: the queue with a selection and the keys dialog, the Flags tab', async ({ page }) => {
      await storeSession(page, ADMIN);
      await openForum(page);
      await putPosts(page, [makePost({ title: 'Queued one', status: 'pending' }), makePost({ title: 'Queued two', status: 'pending' })]);
      await page.goto('/admin');
      await page.getByRole('checkbox', { name: 'Select' }).first().check();
      await page.getByLabel('Reason').first().fill('Too short');
      await expect(page.getByText('1 selected')).toBeVisible();
      await page.keyboard.press('Escape');
      await page.locator('#main').focus();
      await page.keyboard.press('j');
      await expectNoSeriousViolations(page, '/admin queue with a selection and a focused post');
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await expectNoSeriousViolations(page, 'keyboard shortcuts dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Flags', exact: true }).click();
      await expect(page.getByText('No open flags')).toBeVisible();
      await expectNoSeriousViolations(page, '/admin Flags tab');
    });

    test('moderation screens: /admin/insights, /notifications, the Flag dialog', async ({ page }) => {
      await storeSession(page, ADMIN);
      await openForum(page);
      await page.goto('/admin/insights');
      await expect(page.getByText('Computed on this device')).toBeVisible();
      await expect(page.locator('.app-chart-canvas canvas').first()).toBeVisible();
      await expectNoSeriousViolations(page, '/admin/insights');
      await page.goto('/notifications');
      await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
      await expect(page.getByText('No notifications yet')).toBeVisible();
      await expectNoSeriousViolations(page, '/notifications');
      await page.goto('/forum');
      await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
      await page.getByRole('article').first().getByRole('button', { name: 'Flag' }).click();
      await expect(page.getByRole('dialog', { name: 'Flag' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Flag dialog');
    });
  });
}

test('the forum works from the keyboard alone', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  // The first Tab reaches the skip link, which jumps to the content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
  // Tab order reaches the search box, the like buttons and New Post.
  const focusable = page.getByLabel('Search posts');
  await focusable.focus();
  await page.keyboard.type('diary');
  await expect(page.getByRole('article')).toHaveCount(1);
  const like = page.getByRole('button', { name: /^Like/ });
  await like.focus();
  const before = Number((await like.innerText()).replace(/\D/g, ''));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  await expect(like).toContainText(String(before + 2));
  await page.getByRole('button', { name: 'New Post' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toBeFocused();
  await page.keyboard.type('Keyboard only');
  // Title, then the Write tab, Formatting help, and the Content box.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Write' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Formatting help' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Content')).toBeFocused();
  await page.keyboard.type('Written without a mouse.');
  await page.keyboard.press('Enter');
  // Category, Tags, Attach (its hidden file field is no stop), Add poll, Cancel, then Submit Post.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Category')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByRole('textbox', { name: 'Tags' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByRole('button', { name: 'Attach', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByRole('button', { name: 'Add poll' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Submit Post' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New Post' })).toBeHidden();
  await expect(page.locator('.app-toasts').getByRole('status')).toContainText('Post Submitted!');
});

test('focus is visible on links, buttons and fields', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  const ring = await page
    .getByLabel('Email')
    .evaluate((element) => getComputedStyle(element).outlineStyle + ' ' + getComputedStyle(element).boxShadow);
  expect(ring).not.toBe('none none');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const button = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(button).toBeFocused();
  expect(await button.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
});
