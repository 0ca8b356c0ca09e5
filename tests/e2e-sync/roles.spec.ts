// Roles come from the server only: an admin address set by the server's ADMIN_EMAIL is an admin on
// the device (after a reload too), the built-in address is a plain member there, a role edited by
// hand in localStorage does not last, and a sign-out made offline ends the session on the server.
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, removeData, startServer, syncPort, type RunningServer } from './support/server';
import { TABLET, card, newDevice, signIn, submitNewPost, waitSynced, passwordOf } from './support/devices';

const CHIEF = 'chief@panel-house.example';
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({ port: syncPort(11), env: { ADMIN_EMAIL: CHIEF } });
});
test.afterAll(async () => {
  await server?.stop();
  if (server) removeData(server);
});

// The header's link (an author named Admin links to their page too).
const adminLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true });
const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('insightExchangeUser') ?? 'null') as unknown);

test('the server’s ADMIN_EMAIL is the admin here, after a reload too; the built-in address is a member', async ({ browser }) => {
  const phone = await newDevice(browser, server);
  await signIn(phone.page, 'admin@insightexchange.app', 'just-a-member-of-this-forum', 'Ada Member');
  expect(await storedUser(phone.page)).toMatchObject({ email: 'admin@insightexchange.app', role: 'user' });
  await phone.page.goto('/forum');
  await waitSynced(phone.page);
  await expect(adminLink(phone.page)).toHaveCount(0);
  await phone.page.goto('/admin');
  await expect(phone.page).toHaveURL(/\/$/);
  await phone.page.goto('/forum');
  await submitNewPost(phone.page, 'Weighting to census targets', 'Raking or cell weighting for small regional samples?');
  await waitSynced(phone.page);

  const tablet = await newDevice(browser, server, TABLET);
  await signIn(tablet.page, CHIEF, ADMIN_PASSWORD);
  expect(await storedUser(tablet.page)).toMatchObject({ email: CHIEF, role: 'admin' });
  await tablet.page.goto('/admin');
  await expect(tablet.page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
  // A reload lands on /admin again: the role is the server's, settled before the admin area decides.
  await tablet.page.reload();
  await expect(tablet.page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
  await expect(tablet.page).toHaveURL(/\/admin$/);
  const queued = card(tablet.page, 'Weighting to census targets');
  await queued.getByRole('button', { name: 'Approve' }).click();
  await expect(tablet.page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
  // The server took the approval (a refusal would undo it): the phone's forum shows the post live.
  await expect(card(phone.page, 'Weighting to census targets')).toBeVisible();
  await phone.context.close();
  await tablet.context.close();
});

test('a role edited by hand in localStorage lasts only until the device syncs', async ({ browser }) => {
  const { context, page } = await newDevice(browser, server);
  await signIn(page, 'mallory@example.com', passwordOf('mallory@example.com'));
  await page.goto('/forum');
  await waitSynced(page);
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('insightExchangeUser')!) as Record<string, unknown>;
    localStorage.setItem('insightExchangeUser', JSON.stringify({ ...user, role: 'admin' }));
  });
  await page.reload();
  await waitSynced(page);
  await expect.poll(() => storedUser(page)).toMatchObject({ email: 'mallory@example.com', role: 'user' });
  await expect(adminLink(page)).toHaveCount(0);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/$/);
  await context.close();
});

test('a sign-out made offline ends the session on the server once it answers', async ({ browser }) => {
  const { context, page } = await newDevice(browser, server);
  await signIn(page, 'commuter@example.com', passwordOf('commuter@example.com'));
  await page.goto('/profile');
  await waitSynced(page);
  const cookie = (await context.cookies()).find((entry) => entry.name === 'ie_session')!;
  expect(cookie).toBeDefined();
  const asLeftBehind = () =>
    fetch(`${server.url}/api/session`, { headers: { cookie: `ie_session=${cookie.value}` } }).then((response) => response.status);
  expect(await asLeftBehind()).toBe(200);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await asLeftBehind()).toBe(200); // the server has not heard it yet

  const revoked = page.waitForResponse((response) => response.url().endsWith('/api/session') && response.request().method() === 'DELETE');
  await context.setOffline(false);
  expect((await revoked).status()).toBe(204);
  expect(await asLeftBehind()).toBe(401);
  await context.close();
});
