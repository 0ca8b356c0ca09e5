// Conversations (product.md, "Conversations"): a page per post with its replies, quotes, edits,
// deletes, moderation, paging of long threads, and Share. Local-only build; the replies of a long
// thread are written straight into IndexedDB.
import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN,
  card,
  makePost,
  makeReplyRow,
  MEMBER,
  openForum,
  putPosts,
  putRows,
  signIn,
  storeSession,
  toast,
  type TestPost,
} from './support/app';

// The first sample post and its two sample replies (src/shared/sample-posts.json).
const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const FIRST_REPLY = 'We double-code 15%';

const replies = (page: Page) => page.getByRole('list', { name: 'Replies' });
const reply = (page: Page, text: string | RegExp) => replies(page).getByRole('listitem').filter({ hasText: text });
const comments = (page: Page, title: string) => card(page, title).getByTitle('Comments');

/** From the forum, follows a card's title link to the post's page. */
async function openPost(page: Page, title: string): Promise<number> {
  await openForum(page);
  await card(page, title).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

async function writeReply(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Your reply' }).fill(text);
  await page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(reply(page, text)).toBeVisible();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
}

/** Writes a post and `count` replies to it into IndexedDB (oldest first: "Reply 1" … "Reply N"), then reloads. */
async function putThread(page: Page, post: TestPost, count: number): Promise<void> {
  await putPosts(page, [{ ...post, comments: count }], { reload: false });
  await putRows(
    page,
    'replies',
    Array.from({ length: count }, (_, index) => makeReplyRow(post.id, index + 1)),
  );
  await page.reload();
}

test.describe('as a member', () => {
  test.beforeEach(async ({ page }) => {
    await storeSession(page, MEMBER);
  });

  test('the card title leads to the whole post, which counts one view per member', async ({ page }) => {
    await openForum(page);
    const views = Number((await card(page, SAMPLE).getByTitle('Views').innerText()).replace(/\D/g, ''));
    await openPost(page, SAMPLE);
    await expect(page).toHaveTitle(`${SAMPLE} · Insight Exchange`);
    await expect(page.getByRole('button', { name: /^Like: How are you validating/ })).toBeVisible();
    await expect(page.getByRole('button', { name: `Share: ${SAMPLE}` })).toBeVisible();
    // The content is Markdown, rendered (its single line breaks kept as breaks).
    await expect(page.locator('.app-post-body.app-markdown p')).toHaveCount(1);
    await expect(replies(page).getByRole('listitem')).toHaveCount(2);
    await expect(reply(page, FIRST_REPLY)).toContainText('Marcus Webb');
    await expect(reply(page, FIRST_REPLY).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
    // The view is written once the page is idle (leaving before that counts none): counted here first.
    await expect(page.getByRole('main').getByTitle('Views').first()).toHaveText(`Views: ${views + 1}`);

    await page.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(card(page, SAMPLE).getByTitle('Views')).toHaveText(`Views: ${views + 1}`);
    // A second visit is not a second view.
    await openPost(page, SAMPLE);
    await page.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(card(page, SAMPLE).getByTitle('Views')).toHaveText(`Views: ${views + 1}`);
  });

  test("a reply is listed on the post's page and adds one to the card's comment count", async ({ page }) => {
    await openForum(page);
    await expect(comments(page, SAMPLE)).toHaveText('Comments: 2');
    await openPost(page, SAMPLE);
    await expect(page.getByRole('button', { name: 'Post Reply' })).toBeDisabled();
    await writeReply(page, 'We also report agreement per theme.\nIt helps clients read the numbers.');
    const mine = reply(page, 'We also report agreement per theme.');
    await expect(mine).toContainText('Jane Doe');
    await expect(mine).toContainText('Just now');
    // Markdown keeps a single line break as a break.
    await expect(mine.locator('.app-reply-text p br')).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveValue('');
    await expect(replies(page).getByRole('listitem')).toHaveCount(3);
    await page.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(comments(page, SAMPLE)).toHaveText('Comments: 3');
  });

  test('a reply sent from the keyboard leaves the focus in Your reply; one sent with a click does not take it back', async ({ page }) => {
    await openPost(page, SAMPLE);
    const box = page.getByRole('textbox', { name: 'Your reply' });
    await box.fill('Sent with Enter on Post Reply');
    await box.focus();
    const post = page.getByRole('button', { name: 'Post Reply' });
    // Tab past the box's own controls (Attach files) to Post Reply.
    for (let step = 0; step < 6 && !(await post.evaluate((button) => button === document.activeElement)); step += 1)
      await page.keyboard.press('Tab');
    await expect(post).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(reply(page, 'Sent with Enter on Post Reply')).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(box).toBeFocused();
    // A click (a tap on a phone, whose keyboard would come up again) leaves it.
    await box.fill('Sent with a click');
    await page.getByRole('button', { name: 'Post Reply' }).click();
    await expect(reply(page, 'Sent with a click')).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(box).not.toBeFocused();
  });

  test('the reply box keeps a draft across a reload', async ({ page }) => {
    await openPost(page, SAMPLE);
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Half a thought about coders');
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<string>((resolve) => {
              const request = indexedDB.open('insight-exchange');
              request.onsuccess = () => {
                const all = request.result.transaction('meta').objectStore('meta').getAll();
                all.onsuccess = () => resolve(JSON.stringify(all.result));
              };
            }),
        ),
      )
      .toContain('Half a thought about coders');
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveValue('Half a thought about coders');
  });

  test('quoting a reply shows its author and first lines, and links back to it', async ({ page }) => {
    await openPost(page, SAMPLE);
    await reply(page, FIRST_REPLY).getByRole('button', { name: 'Quote' }).click();
    await expect(page.getByText('Quoting Marcus Webb')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your reply' })).toBeFocused();
    await page.getByRole('button', { name: 'Remove quote' }).click();
    await expect(page.getByText('Quoting Marcus Webb')).toHaveCount(0);
    await reply(page, FIRST_REPLY).getByRole('button', { name: 'Quote' }).click();
    await writeReply(page, 'Fifteen percent seems a good floor.');

    const quoting = reply(page, 'Fifteen percent seems a good floor.');
    // The new reply is marked for a moment; once the mark has faded, a link followed still focuses
    // its reply (CI met a faded mark's number reused: the quoted reply marked but never focused).
    await expect(quoting).toHaveClass(/is-target/);
    await expect(quoting).not.toHaveClass(/is-target/);
    const quote = quoting.locator('blockquote');
    await expect(quote).toContainText(FIRST_REPLY);
    await expect(quote).toHaveCSS('-webkit-line-clamp', '3');
    await expect(page.getByText('Quoting Marcus Webb')).toHaveCount(0);
    const link = quoting.getByRole('link', { name: 'Marcus Webb wrote' });
    await expect(link).toHaveAttribute('href', /\/posts\/\d+\?reply=/);
    await link.click();
    const quoted = replies(page).getByRole('listitem').first();
    await expect(quoted).toBeFocused();
    await expect(quoted).toHaveClass(/is-target/);
    await expect(page).toHaveURL(/\?page=1$/);
  });

  test('a quote shows the quoted reply as plain text, without its Markdown marks', async ({ page }) => {
    await openPost(page, SAMPLE);
    await page.getByRole('textbox', { name: 'Your reply' }).fill('We saw **Panel B** speeders in _wave 2_');
    await page.getByRole('button', { name: 'Post Reply' }).click();
    await reply(page, 'speeders in wave 2').getByRole('button', { name: 'Quote' }).click();
    await expect(page.locator('form').getByText('We saw Panel B speeders in wave 2', { exact: true })).toBeVisible();
    await writeReply(page, 'Same here.');
    const quote = reply(page, 'Same here.').locator('blockquote');
    await expect(quote).toHaveText('We saw Panel B speeders in wave 2');
  });

  test('the author edits and deletes their own reply; others have no Edit or Delete', async ({ page }) => {
    await openPost(page, SAMPLE);
    await expect(reply(page, FIRST_REPLY).getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(reply(page, FIRST_REPLY).getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await writeReply(page, 'A first version of my reply');

    // By its id: while it is edited, its text is in a textbox (not the item's text).
    const mine = page.locator(`#${await reply(page, 'A first version of my reply').getAttribute('id')}`);
    await mine.getByRole('button', { name: 'Edit' }).click();
    const editor = mine.getByRole('textbox', { name: 'Edit reply' });
    await expect(editor).toBeFocused();
    await editor.fill('A second version of my reply');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(mine).toContainText('A second version of my reply');
    await expect(mine).toContainText('edited');
    await expect(mine.getByRole('button', { name: 'Edit' })).toBeFocused();

    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByRole('textbox', { name: 'Edit reply' }).fill('Not this');
    await mine.getByRole('button', { name: 'Cancel' }).click();
    await expect(mine).toContainText('A second version of my reply');

    await mine.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete reply?' });
    await expect(dialog).toContainText('Your reply will be removed for everyone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(mine).toBeVisible();
    await mine.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeHidden();
    await expect(mine).toHaveCount(0);
    await expect(replies(page).getByRole('listitem')).toHaveCount(2);
    await page.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(comments(page, SAMPLE)).toHaveText('Comments: 2');
  });

  test('a post that is missing, not visible to this member or not a number is "Post not available"', async ({ page }) => {
    await openForum(page);
    const others = makePost({ title: 'Someone else’s pending post', status: 'pending' });
    const mine = makePost({ title: 'My own pending post', status: 'pending', authorEmail: MEMBER });
    await putPosts(page, [others, mine]);
    for (const path of ['/posts/999', '/posts/abc', `/posts/${others.id}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Post not available' })).toBeVisible();
      await expect(page).toHaveTitle('Post not available · Insight Exchange');
      await expect(page.getByRole('link', { name: 'Back to the forum' })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Back to the forum' }).click();
    await expect(page).toHaveURL('/forum');

    // Its author sees their pending post; replies wait for the approval.
    await page.goto(`/posts/${mine.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'My own pending post' })).toBeVisible();
    await expect(page.getByText('Replies open once a post is approved.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveCount(0);
  });

  test("a pending post's card on the profile leads to its page", async ({ page }) => {
    await openForum(page);
    const mine = makePost({ title: 'Waiting for review', status: 'pending', authorEmail: MEMBER });
    await putPosts(page, [mine]);
    await page.goto('/profile');
    await card(page, 'Waiting for review').getByRole('link', { name: 'Waiting for review' }).click();
    await expect(page).toHaveURL(`/posts/${mine.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Waiting for review' })).toBeVisible();
  });

  test("a deep link opens the post's page on a cold load", async ({ page, context }) => {
    const id = await openPost(page, SAMPLE);
    const fresh = await context.newPage();
    await fresh.goto(`/posts/${id}`);
    await expect(fresh.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
    await expect(replies(fresh).getByRole('listitem')).toHaveCount(2);
    await fresh.reload();
    await expect(fresh.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
  });

  test('Share copies the link and says so', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const id = await openPost(page, SAMPLE);
    await page.getByRole('button', { name: `Share: ${SAMPLE}` }).click();
    await expect(toast(page, 'Link copied')).toContainText('Anyone who can see this post can open it.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(page.url()).origin}/posts/${id}`);
  });

  test('Share shows the link in a dialog when the clipboard refuses', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new DOMException('Refused', 'NotAllowedError')) },
      });
    });
    const id = await openPost(page, SAMPLE);
    await page.getByRole('button', { name: `Share: ${SAMPLE}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this post' });
    const field = dialog.getByRole('textbox', { name: 'Link to this post' });
    await expect(field).toHaveValue(`${new URL(page.url()).origin}/posts/${id}`);
    await expect(field).toHaveAttribute('readonly', '');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Press Ctrl+C (⌘C on a Mac) to copy.');
    await expect(field).toBeFocused();
    expect(await field.evaluate((input: HTMLInputElement) => input.selectionEnd! - input.selectionStart!)).toBeGreaterThan(10);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Link copied')).toHaveCount(0);
  });

  test('Share uses the share sheet where the browser has one; a cancel does nothing', async ({ page }) => {
    await page.addInitScript(() => {
      const calls: unknown[] = [];
      Object.assign(window, { shareCalls: calls });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: unknown) => {
          calls.push(data);
          return calls.length === 1 ? Promise.resolve() : Promise.reject(new DOMException('Cancelled', 'AbortError'));
        },
      });
    });
    const id = await openPost(page, SAMPLE);
    const share = page.getByRole('button', { name: `Share: ${SAMPLE}` });
    await share.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shareCalls: unknown[] }).shareCalls))
      .toEqual([{ title: SAMPLE, url: `${new URL(page.url()).origin}/posts/${id}` }]);
    await share.click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shareCalls: unknown[] }).shareCalls.length)).toBe(2);
    await expect(page.locator('.app-toasts .toast')).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a thread of 1,000 replies shows 20 at a time, keeps its page in the address, and stays light', async ({ page }) => {
    await openForum(page);
    const post = makePost({ title: 'A very long thread' });
    await putThread(page, post, 1000);
    await page.goto(`/posts/${post.id}`);
    const nav = page.getByRole('navigation', { name: 'Reply pages' });
    await expect(nav).toContainText('Page 1 of 50');
    await expect(replies(page).getByRole('listitem')).toHaveCount(20);
    await expect(replies(page).getByRole('listitem').first()).toContainText('Reply 1');
    await expect(page.getByRole('heading', { name: 'Replies (1,000)' })).toBeVisible();
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(1500);
    await expect(nav.getByRole('link', { name: 'Previous' })).toHaveAttribute('aria-disabled', 'true');

    await nav.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(`/posts/${post.id}?page=2`);
    await expect(nav).toContainText('Page 2 of 50');
    await expect(replies(page).getByRole('listitem').first()).toContainText('Reply 21');
    await page.reload();
    await expect(nav).toContainText('Page 2 of 50');
    await expect(replies(page).getByRole('listitem').first()).toContainText('Reply 21');
    await nav.getByRole('link', { name: 'Previous' }).click();
    await expect(nav).toContainText('Page 1 of 50');

    await page.goto(`/posts/${post.id}?page=50`);
    await expect(replies(page).getByRole('listitem').last()).toContainText('Reply 1000');
    await expect(nav.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(1500);

    // A reply written from the first page is shown on the last one, in view.
    await page.goto(`/posts/${post.id}`);
    await expect(nav).toContainText('Page 1 of 50');
    await writeReply(page, 'Reply one thousand and one');
    await expect(nav).toContainText('Page 51 of 51');
    await expect(page).toHaveURL(`/posts/${post.id}?page=51`);
    await expect(reply(page, 'Reply one thousand and one')).toBeInViewport();
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(1500);
  });
});

test('an admin hides a reply; members read "Hidden by a moderator"', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openPost(page, SAMPLE);
  await reply(page, FIRST_REPLY).getByRole('button', { name: 'Hide' }).click();
  const hidden = reply(page, FIRST_REPLY);
  await expect(hidden.getByRole('button', { name: 'Restore' })).toBeVisible();
  await expect(hidden).toContainText('Hidden');
  // One number, one meaning (issue 40): the page counts what the card counts, and says the rest.
  await expect(page.getByRole('heading', { level: 2, name: 'Replies (1) · 1 hidden' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the forum' }).click();
  await expect(comments(page, SAMPLE)).toHaveText('Comments: 1');

  await signOut(page);
  await signIn(page, MEMBER);
  await openPost(page, SAMPLE);
  const seen = replies(page).getByRole('listitem').first();
  await expect(seen).toContainText('Hidden by a moderator');
  await expect(seen).toContainText('Marcus Webb');
  await expect(seen).not.toContainText(FIRST_REPLY);
  await expect(seen.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Hide' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Replies (1) · 1 hidden' })).toBeVisible();
});

test('an admin restores a hidden reply: it is shown and counted again', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openPost(page, SAMPLE);
  await reply(page, FIRST_REPLY).getByRole('button', { name: 'Hide' }).click();
  await expect(reply(page, FIRST_REPLY).getByRole('button', { name: 'Restore' })).toBeVisible();
  await reply(page, FIRST_REPLY).getByRole('button', { name: 'Restore' }).click();
  await expect(reply(page, FIRST_REPLY).getByRole('button', { name: 'Hide' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the forum' }).click();
  await expect(comments(page, SAMPLE)).toHaveText('Comments: 2');
});
