import { expect, test } from '@playwright/test';
import { card, MEMBER, openForum, signIn, storeSession, submitNewPost, toast } from './support/app';

test.beforeEach(async ({ page }) => {
  await signIn(page, MEMBER);
  await openForum(page);
});

test('the New Post modal has its title, labelled fields and a default category', async ({ page }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await expect(dialog.getByLabel('Content')).toBeVisible();
  await expect(dialog.getByLabel('Category')).toHaveValue('Quantitative');
  await expect(dialog.getByRole('button', { name: 'Submit Post' })).toBeVisible();
});

test("New Post's code is loaded once the forum's first posts are painted, before New Post is pointed at", async ({ page }) => {
  // Fetched only on the click, a new member's first New Post waited 1.2-1.4 s for it on a busy machine.
  const loaded = () =>
    page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/new-post-modal-[\w-]+\.js$/.test(entry.name)));
  await expect(page.locator('article').first()).toBeVisible();
  await expect.poll(loaded, { timeout: 15_000 }).toBe(true);
  await page.getByRole('button', { name: 'New Post' }).first().click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toBeFocused();
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`on a ${viewport.width}x${viewport.height} screen, New Post's Close, Cancel and Submit Post stay in view while its body scrolls`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.getByRole('button', { name: 'New Post' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Post' });
    await expect(dialog.getByLabel('Title')).toBeFocused();
    const inView = async (name: string) => {
      const box = await dialog.getByRole('button', { name, exact: true }).boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
    };
    const allInView = async () => (await inView('Close')) && (await inView('Cancel')) && (await inView('Submit Post'));
    await expect.poll(allInView).toBe(true);
    // A refusal moves the focus to the title: the dialog's header and footer stay where they were.
    await dialog.getByRole('button', { name: 'Submit Post' }).click();
    await expect(toast(page, 'Missing Information', 'alert')).toBeVisible();
    await expect(dialog.getByLabel('Title')).toBeFocused();
    await expect.poll(allInView).toBe(true);
    // What is below the fold is reached by scrolling the body, not the page.
    await dialog.getByRole('button', { name: 'Add poll' }).scrollIntoViewIfNeeded();
    await expect.poll(allInView).toBe(true);
  });
}

test('refuses a blank title or content with Missing Information', async ({ page }) => {
  const dialog = await submitNewPost(page, '   ', 'Some content');
  await expect(toast(page, 'Missing Information', 'alert')).toContainText('Please fill in both title and content for your post.');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Content')).toHaveValue('Some content');
});

test('a submitted post is pending: on the profile with its badge, not on the forum', async ({ page }) => {
  const dialog = await submitNewPost(
    page,
    'Weighting a small B2B sample',
    'How do you weight n=150 decision makers across company sizes?',
    'Best Practices',
  );
  await expect(toast(page, 'Post Submitted!')).toContainText('Your post is now pending approval from an admin.');
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Weighting a small B2B sample')).toHaveCount(0);

  await page.getByRole('link', { name: 'Profile' }).click();
  const mine = card(page, 'Weighting a small B2B sample');
  await expect(mine).toBeVisible();
  await expect(mine).toContainText('pending');
  await expect(mine).toContainText('Best Practices');
  await expect(mine).toContainText('Just now');
  await expect(page.getByText("You haven't posted anything yet.")).toHaveCount(0);
});

test('Tags: typed with commas, a leading # and a repeat dropped, shown on the card; a too-long tag is refused, nothing lost (issue 40)', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Tagged for search');
  await dialog.getByLabel('Content').fill('A post with tags.');
  const field = dialog.getByRole('textbox', { name: 'Tags' });
  await expect(field).toHaveAccessibleDescription(/Up to 10, separated by commas/);
  await field.fill(`MaxDiff, ${'x'.repeat(41)}`);
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Error', 'alert')).toContainText('Tags: at most 10, each at most 40 characters');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await expect(dialog.getByLabel('Title')).toHaveValue('Tagged for search');
  await field.fill(' MaxDiff, #Pricing,, maxdiff ');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Post Submitted!')).toBeVisible();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(card(page, 'Tagged for search').getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([
    '#MaxDiff',
    '#Pricing',
  ]);
});

test('the modal keeps focus inside, closes on Escape and keeps the draft', async ({ page }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Half-written thought');
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'New Post' })).toBeFocused();
  await page.reload();
  await page.getByRole('button', { name: 'New Post' }).click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toHaveValue('Half-written thought');
});

// react-bootstrap ends a dialog's exit on its own transitionend, or on the one transitionEnd sends
// after the duration. dom-helpers' version sent none once a child's transitionend had bubbled up
// (the dialog's slide), so when the dialog's own never came, the closed dialog stayed in the page,
// invisible, taking every click (CI, pwa-update.spec.ts). The build uses the fixed copy
// (src/lib/transition-end.ts). Here the dialog's own fade never ends: its opacity is held at 1.
test('a closed dialog leaves the page even when its own fade never ends, and the page takes clicks again', async ({ page }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Closed while its fade was held');
  await dialog.evaluate((element: HTMLElement) => {
    element.style.setProperty('transition', 'opacity 0.4s linear', 'important');
    element.style.setProperty('opacity', '1', 'important');
    element.querySelector<HTMLElement>('.modal-dialog')!.style.setProperty('transition', 'transform 0.1s linear', 'important');
  });
  await page.keyboard.press('Escape');
  await expect(page.locator('.app-new-post-modal')).toHaveCount(0);
  await page.getByRole('button', { name: 'New Post' }).click({ timeout: 5_000 });
  await expect(dialog.getByLabel('Title')).toHaveValue('Closed while its fade was held');
});

test('shows a counter and a clear message at the length limits', async ({ page }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  const title = dialog.getByLabel('Title');
  await title.fill('x'.repeat(250));
  await expect(title).toHaveValue('x'.repeat(200));
  await expect(dialog).toContainText('200 / 200');
  await expect(dialog).toContainText('A title can be at most 200 characters.');
  // A long text keeps a paste past its limit whole: the counter says how much to remove, Submit refuses it.
  const content = dialog.getByLabel('Content');
  await content.fill('c'.repeat(20_100));
  await expect(content).toHaveValue('c'.repeat(20_100));
  await expect(dialog).toContainText('Content can be at most 20,000 characters: remove 100.');
  await expect(content).toHaveAttribute('aria-invalid', 'true');
});

test('a reload right after typing keeps the draft (saved on pagehide, not only 300 ms later)', async ({ page }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Typed just before the reload');
  await dialog.getByLabel('Content').fill('Every keystroke counts');
  await page.reload();
  await page.getByRole('button', { name: 'New Post' }).click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toHaveValue('Typed just before the reload');
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Content')).toHaveValue('Every keystroke counts');
});

test('a sign-out in another tab keeps the draft and says why this tab is on /login', async ({ page, context }) => {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Draft before the sign-out');
  const other = await context.newPage();
  await other.goto('/forum');
  await other.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'You were signed out in another tab' })).toBeVisible();
  // The draft is named because there is one (issue 59: only then).
  await expect(page.getByRole('status').filter({ hasText: 'You were signed out in another tab' })).toContainText(
    'A post you were writing is kept as a draft.',
  );
  await other.close();
  await storeSession(page, MEMBER);
  await openForum(page);
  await page.getByRole('button', { name: 'New Post' }).click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toHaveValue('Draft before the sign-out');
});
