import { expect, test, type Page } from '@playwright/test';
import { ADMIN, card, makePost, MEMBER, openForum, putPosts, signIn, storeSession, toast } from './support/app';

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/login');
}

const bell = (page: Page) => page.getByRole('button', { name: 'Notifications', exact: true });

test('a rejection with its reason reaches its author: the bell counts it, the page lists it, Mark all as read, opening it shows the post', async ({
  page,
  context,
}) => {
  const post = makePost({ id: 1_990_000_000_001, title: 'My survey draft', status: 'pending', authorEmail: MEMBER, author: 'Jane Doe' });
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [post]);
  await expect(bell(page)).toHaveAccessibleDescription('No unread notifications');
  await bell(page).click();
  await expect(page).toHaveURL('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('No notifications yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();

  // The admin reviews on this same device (the session is the device's: every tab follows it).
  await signOut(page);
  await signIn(page, ADMIN);
  await page.goto('/admin');
  await card(page, 'My survey draft').getByLabel('Reason').fill('Please state the sample frame.');
  await card(page, 'My survey draft').getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, 'Post rejected')).toBeVisible();
  await signOut(page);
  await signIn(page, MEMBER);
  await openForum(page);

  await expect(bell(page)).toHaveAccessibleDescription('1 unread notification');
  await expect(bell(page)).toContainText('1');
  await bell(page).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  const item = list.getByRole('listitem').first();
  await expect(item).toContainText('Your post “My survey draft” was rejected');
  await expect(item).toContainText('Reason: Please state the sample frame.');
  await expect(item).toContainText('Unread');

  // A second tab of the same member: marking read there shows here at once.
  const other = await context.newPage();
  await other.goto('/notifications');
  await other.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(toast(other, 'All caught up')).toBeVisible();
  await expect(item).not.toContainText('Unread');
  await expect(bell(page)).toHaveAccessibleDescription('No unread notifications');
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await other.close();

  await item.getByRole('link').click();
  await expect(page).toHaveURL(`/posts/${post.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'My survey draft' })).toBeVisible();
});

/** The member's pending post `title` (id `id`) approved by the admin on this device, then the member signed in again. */
async function approvedForMember(page: Page, id: number, title: string): Promise<void> {
  await storeSession(page, MEMBER);
  await openForum(page);
  await putPosts(page, [makePost({ id, title, status: 'pending', authorEmail: MEMBER, author: 'Jane Doe' })]);
  await signOut(page);
  await signIn(page, ADMIN);
  await page.goto('/admin');
  await card(page, title).getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Post approved')).toBeVisible();
  await signOut(page);
  await signIn(page, MEMBER);
}

test('opening an unread notification marks it read', async ({ page }) => {
  await approvedForMember(page, 1_991_000_000_001, 'Read on open');
  await page.goto('/notifications');
  const item = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first();
  await expect(item).toContainText('Unread');
  await item.getByRole('link', { name: /was approved/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Read on open' })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleDescription('No unread notifications');
});

test('opening the post itself, from the forum, reads what the bell said about it', async ({ page }) => {
  await approvedForMember(page, 1_991_000_000_002, 'Read from the forum');
  await openForum(page);
  await expect(bell(page)).toHaveAccessibleDescription('1 unread notification');
  await card(page, 'Read from the forum').getByRole('link', { name: 'Read from the forum' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Read from the forum' })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleDescription('No unread notifications');
});

test.describe('system notifications', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the browser is asked only on "Turn on system notifications"; on, then off', async ({ page, context }) => {
    await context.grantPermissions(['notifications']);
    await page.addInitScript(() => {
      const original = Notification.requestPermission.bind(Notification);
      (window as unknown as { asked: number }).asked = 0;
      Notification.requestPermission = () => {
        (window as unknown as { asked: number }).asked += 1;
        return original();
      };
    });
    await storeSession(page, MEMBER);
    await openForum(page);
    await page.goto('/notifications');
    const turnOn = page.getByRole('button', { name: 'Turn on system notifications' });
    await expect(turnOn).toBeVisible();
    await expect(page.getByText('Off.', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(0);

    await turnOn.click();
    await expect(page.getByText(/^On: news that arrives while the app is in the background/)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(1);
    // The choice is kept on this device.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Turn off system notifications' })).toBeVisible();
    await page.getByRole('button', { name: 'Turn off system notifications' }).click();
    await expect(turnOn).toBeVisible();
    // The service worker shows them (and nothing was shown so far).
    const shown = await page.evaluate(() => navigator.serviceWorker.ready.then((registration) => registration.getNotifications()));
    expect(shown).toHaveLength(0);
  });

  test('blocked by the browser: says so and offers nothing to press', async ({ page, context }) => {
    await storeSession(page, MEMBER);
    await openForum(page);
    await context.clearPermissions();
    await page.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
    });
    await page.goto('/notifications');
    await expect(page.getByText(/^Blocked by the browser/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Turn on system notifications' })).toHaveCount(0);
  });
});
