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

const reply = (page: Page, text: string) => page.getByRole('list', { name: 'Replies' }).getByRole('listitem').filter({ hasText: text });

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
}

const DISMISS = makePost({ id: 1_980_000_000_001, title: 'Flag then dismiss', comments: 2 });
const HIDE = makePost({ id: 1_980_000_000_002, title: 'Flag then hide' });
const DELETE = makePost({ id: 1_980_000_000_003, title: 'Flag then delete' });
const MINE = makePost({ id: 1_980_000_000_004, title: 'My own post', authorEmail: MEMBER, author: 'Jane Doe' });

async function seed(page: Page) {
  await putPosts(page, [DISMISS, HIDE, DELETE, MINE], { reload: false });
  await putRows(page, 'replies', [
    makeReplyRow(DISMISS.id, 1, { content: 'Buy cheap followers at my site' }),
    makeReplyRow(DISMISS.id, 2, { content: 'My own reply here', authorEmail: MEMBER, author: 'Jane Doe' }),
  ]);
  await page.reload();
}

/** Flags what `button` belongs to, with a reason and words. */
async function flag(page: Page, button: ReturnType<Page['getByRole']>, reason: string, words = '') {
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Flag' });
  await dialog.getByRole('radio', { name: reason }).check();
  if (words) await dialog.getByLabel(/Tell us more/).fill(words);
  await dialog.getByRole('button', { name: 'Send flag' }).click();
  await expect(toast(page, 'Thanks for flagging')).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

const postFlag = (page: Page) => page.getByRole('article').first().getByRole('button', { name: /^Flag/ });

// Which flags the rules accept (once per member and item, never one's own, only what is on the
// forum) is held on both stores by tests/ops/flag.cases.ts; here, what a member and an admin see.
test('members flag a post and a reply through the dialog, once, and never their own', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await seed(page);

  // A post: Flag, the dialog, then "Flagged" (disabled), also after a reload.
  await page.goto(`/posts/${DISMISS.id}`);
  await expect(postFlag(page)).toHaveText('Flag');
  await flag(page, postFlag(page), 'Spam');
  await expect(postFlag(page)).toHaveText('Flagged');
  await expect(postFlag(page)).toBeDisabled();
  await page.reload();
  await expect(postFlag(page)).toHaveText('Flagged');
  await expect(postFlag(page)).toBeDisabled();

  // A reply, with Other: its words are required.
  const spam = reply(page, 'Buy cheap followers');
  await spam.getByRole('button', { name: 'Flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Flag' });
  await dialog.getByRole('radio', { name: 'Other' }).check();
  await dialog.getByRole('button', { name: 'Send flag' }).click();
  await expect(dialog.getByText('Please say what is wrong with it.')).toBeVisible();
  await dialog.getByLabel(/Tell us more/).fill('Advertising, not research');
  await dialog.getByRole('button', { name: 'Send flag' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(spam.getByRole('button', { name: 'Flagged' })).toBeDisabled();
  // Own reply and own post: no Flag.
  await expect(reply(page, 'My own reply here').getByRole('button', { name: /^Flag/ })).toHaveCount(0);
  await page.goto(`/posts/${MINE.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'My own post' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Flag/ })).toHaveCount(0);
});

/** A member's open flag as the device stores it (set up through the data layer). */
const openFlag = (id: string, postId: number, replyId: string | null, reason: string, text = '') => ({
  id,
  postId,
  replyId,
  reason,
  text,
  flagger: 'Jane Doe',
  flaggerEmail: MEMBER,
  createdAt: 1_700_000_000_000,
  state: 'open',
  target: replyId ? `reply:${replyId}` : `post:${postId}`,
  open: 1,
});

test('admins dismiss, hide and delete from the Flags tab; the forum and members follow', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  await seed(page);
  const spamReply = makeReplyRow(DISMISS.id, 1).id;
  await putRows(page, 'flags', [
    openFlag('00000000-0000-4000-8000-0000000000f1', DISMISS.id, null, 'spam'),
    openFlag('00000000-0000-4000-8000-0000000000f2', DISMISS.id, spamReply, 'other', 'Advertising, not research'),
    openFlag('00000000-0000-4000-8000-0000000000f3', HIDE.id, null, 'off-topic', 'Not about market research'),
    openFlag('00000000-0000-4000-8000-0000000000f4', DELETE.id, null, 'off-topic', 'Not about market research'),
  ]);
  await page.goto('/admin');
  const flagsTab = page.getByRole('tab', { name: 'Flags', exact: true });
  await expect(flagsTab).toContainText('4');
  // The Admin link's badge counts open flags too, and its description says which (issue 40).
  const adminLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true });
  await expect(adminLink).toHaveAccessibleDescription('4 flagged items waiting for review');
  await expect(adminLink.locator('.badge')).toHaveText('4');
  await flagsTab.click();
  const item = (title: string) => page.getByRole('tabpanel').getByRole('article').filter({ hasText: title });
  const replyItem = page.getByRole('tabpanel').getByRole('article').filter({ hasText: 'Buy cheap followers' });
  await expect(replyItem).toContainText('A reply by Member 1');
  await expect(replyItem).toContainText('Other');
  await expect(replyItem).toContainText('Advertising, not research');
  const dismissItem = item('Flag then dismiss').filter({ hasText: 'A post by' });
  await expect(dismissItem).toContainText('Spam');
  await expect(dismissItem.getByRole('link', { name: 'Flag then dismiss' })).toHaveAttribute('href', `/posts/${DISMISS.id}`);

  await dismissItem.getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast(page, 'Flags dismissed')).toBeVisible();
  await expect(dismissItem).toHaveCount(0);
  await expect(adminLink).toHaveAccessibleDescription('3 flagged items waiting for review');
  // The focus stays in the queue: on the card now in its place.
  await expect(
    page
      .getByRole('tabpanel')
      .getByRole('article')
      .locator('.card-footer button')
      .filter({ hasText: 'Dismiss' })
      .and(page.locator(':focus')),
  ).toHaveCount(1);

  await replyItem.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'Reply hidden')).toBeVisible();
  await expect(replyItem).toHaveCount(0);

  await item('Flag then hide').getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'Post hidden')).toBeVisible();
  await expect(item('Flag then hide')).toHaveCount(0);

  await item('Flag then delete').getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete post?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  const deleted = toast(page, 'Post deleted');
  await expect(deleted.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByText('No open flags')).toBeVisible();
  // The last one gone: the focus is on the panel's heading, not lost to the page.
  await expect(page.getByRole('heading', { name: 'Flagged posts and replies' })).toBeFocused();
  await expect(flagsTab).toContainText('0');

  // The forum: the dismissed post stays, the hidden and deleted ones are gone.
  await page.goto('/forum');
  await expect(card(page, 'Flag then dismiss')).toBeVisible();
  await expect(card(page, 'Flag then hide')).toHaveCount(0);
  await expect(card(page, 'Flag then delete')).toHaveCount(0);

  // Members read the hidden reply as "Hidden by a moderator".
  await signOut(page);
  await signIn(page, MEMBER);
  await page.goto(`/posts/${DISMISS.id}`);
  await expect(page.getByRole('list', { name: 'Replies' })).toContainText('Hidden by a moderator');
  await expect(page.getByText('Buy cheap followers')).toHaveCount(0);
});

test('signed-out visitors never see Flag: the post page is for members', async ({ page }) => {
  const post: TestPost = makePost({ id: 1_981_000_000_001, title: 'Signed-out check' });
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [post]);
  await signOut(page);
  await page.goto(`/posts/${post.id}`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: /^Flag/ })).toHaveCount(0);
});

test('the Flag dialog and a confirmation close with their ✕, nothing sent (issue 40)', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await seed(page);
  await page.goto(`/posts/${DISMISS.id}`);
  await postFlag(page).click();
  const dialog = page.getByRole('dialog', { name: 'Flag' });
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(postFlag(page)).toHaveText('Flag');
  // A confirmation (Delete post?) has one too.
  await page.goto(`/posts/${MINE.id}`);
  await page.getByRole('button', { name: 'Delete' }).first().click();
  const confirm = page.getByRole('dialog', { name: /Delete/ });
  await confirm.getByRole('button', { name: 'Close' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'My own post' })).toBeVisible();
});
