// Preferences and saved posts across devices through the real server: the theme a member chooses follows them to every
// device (live, and to a device signed in later), a saved post is saved everywhere (and an unsave
// leaves everywhere), and a display name edited on one device shows on the member's posts on every
// device, another member's included.
import { expect, test, type Page, type Response } from '@playwright/test';
import { waitForServiceWorker } from '../e2e/support/service-worker';
import { chooseTheme } from './support/member-actions';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, type newDevice, sendOps, signedInDevice, waitSynced, type Device } from './support/devices';

const ADMIN = 'admin@insightexchange.app';
const spec = serverForSpec(syncPort(18));

type Browser = Parameters<typeof newDevice>[0];

const device = (browser: Browser, email: string, viewport = PHONE, path = '/forum'): Promise<Device> =>
  signedInDevice(browser, spec.server, email, viewport, path);

/** The colour mode the page is drawn in (Bootstrap's data-bs-theme on <html>). */
const drawnIn = (page: Page) => page.locator('html');

/** Posts `titles` as the admin (through the API) and approves them; returns their ids. */
async function approvedPosts(admin: Page, titles: string[], author?: Page): Promise<number[]> {
  const answer = await sendOps(
    author ?? admin,
    titles.map((title) => ({ type: 'create', post: { title, content: `About ${title}.`, category: 'Trends', tags: ['comfort'] } })),
    5,
  );
  expect(answer.results.map((result) => result.status)).toEqual(titles.map(() => 'applied'));
  const ids = answer.results.map((result) => result.postId!);
  const approved = await sendOps(
    admin,
    ids.map((postId) => ({ type: 'approve', postId })),
    5,
  );
  // The admin's own posts may be approved on creation: both answers leave them approved.
  expect(approved.results.every((result) => result.status === 'applied' || result.code === 'already_reviewed')).toBe(true);
  return ids;
}

test('a theme chosen on the phone follows the member to the tablet live, and to a device signed in later', async ({ browser }) => {
  const phone = await device(browser, 'tess@example.com', PHONE, '/profile');
  const tablet = await device(browser, 'tess@example.com', TABLET);
  await expect(drawnIn(tablet.page)).toHaveAttribute('data-bs-theme', 'light');

  await chooseTheme(phone.page, 'Dark');
  await expect(drawnIn(phone.page)).toHaveAttribute('data-bs-theme', 'dark');
  // Live on the tablet, with the browser's theme colour following.
  await expect(drawnIn(tablet.page)).toHaveAttribute('data-bs-theme', 'dark');
  const themeColor = () => tablet.page.locator('meta[name="theme-color"]').first().getAttribute('content');
  await expect.poll(themeColor).toBe('#151934');

  // A device signed in later starts in it, and keeps it across a reload that reaches no server.
  const laptop = await device(browser, 'tess@example.com', { width: 1280, height: 900 });
  await expect(drawnIn(laptop.page)).toHaveAttribute('data-bs-theme', 'dark');
  // The server unreachable for the reload: the theme comes from the device alone (the cookie the boot script reads).
  await laptop.page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await laptop.page.reload();
  await expect(drawnIn(laptop.page)).toHaveAttribute('data-bs-theme', 'dark');
  await laptop.page.unroute('**/api/**');

  // Back to System on the tablet: the phone follows (the emulated system is light).
  await tablet.page.goto('/profile');
  await chooseTheme(tablet.page, 'System');
  await expect(drawnIn(phone.page)).toHaveAttribute('data-bs-theme', 'light');
  for (const opened of [phone, tablet, laptop]) await opened.context.close();
});

test('a post saved on the phone is saved on the tablet; unsaved on the tablet, it leaves the phone', async ({ browser }) => {
  const admin = await device(browser, ADMIN, TABLET, '/admin');
  const [, keptId] = await approvedPosts(admin.page, ['Diary studies at scale', 'Panel fatigue signals']);
  const phone = await device(browser, 'sami@example.com');
  const tablet = await device(browser, 'sami@example.com', TABLET, '/profile');
  const saved = tablet.page.getByRole('region', { name: 'Saved Posts' }).or(tablet.page.locator('#saved-posts'));
  await expect(saved.getByRole('link', { name: 'Panel fatigue signals' })).toHaveCount(0);

  const save = card(phone.page, 'Panel fatigue signals').getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  await waitSynced(phone.page);
  await expect(saved.getByRole('link', { name: 'Panel fatigue signals' })).toBeVisible();

  // Unsaved on the tablet's post page: the phone's card follows.
  await tablet.page.goto(`/posts/${keptId}`);
  const onPage = tablet.page.getByRole('button', { name: 'Save', exact: true }).first();
  await expect(onPage).toHaveAttribute('aria-pressed', 'true');
  await onPage.click();
  await expect(onPage).toHaveAttribute('aria-pressed', 'false');
  await expect(save).toHaveAttribute('aria-pressed', 'false');
  for (const opened of [admin, phone, tablet]) await opened.context.close();
});

test('a display name edited on the phone shows on the member’s posts on every device, another member’s too', async ({ browser }) => {
  const phone = await device(browser, 'rhea@example.com', PHONE, '/profile');
  const admin = await device(browser, ADMIN, TABLET);
  await approvedPosts(admin.page, ['Segmentation that survives contact'], phone.page);
  const other = await device(browser, 'omar@example.com', { width: 1280, height: 900 });
  const byline = card(other.page, 'Segmentation that survives contact');
  await expect(byline).toBeVisible();

  await phone.page.getByRole('button', { name: 'Edit Profile' }).click();
  const dialog = phone.page.getByRole('dialog', { name: 'Edit Profile' });
  const field = dialog.getByLabel('Display name');
  await field.fill('   ');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  // A blank name is refused with a sentence, and the dialog keeps what was typed.
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a display name.');
  await field.fill('Rhea Okafor-Lind');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(phone.page.getByRole('heading', { name: 'Rhea Okafor-Lind' }).first()).toBeVisible();

  // Another member's device shows the new name on the post, live; the author link leads to the member page.
  await expect(byline.getByRole('link', { name: 'Rhea Okafor-Lind' })).toBeVisible();
  await byline.getByRole('link', { name: 'Rhea Okafor-Lind' }).click();
  await expect(other.page.getByRole('heading', { level: 1, name: 'Rhea Okafor-Lind' })).toBeVisible();
  await expect(other.page.getByRole('link', { name: 'Segmentation that survives contact' })).toBeVisible();
  for (const opened of [phone, admin, other]) await opened.context.close();
});

/** Every operation `page` pushed to /api/ops, with the answer the server gave it. */
function pushedOps(page: Page): { type: string; id: string; status: string }[] {
  const seen: { type: string; id: string; status: string }[] = [];
  page.on('response', (response: Response) => {
    if (!response.url().endsWith('/api/ops') || response.request().method() !== 'POST') return;
    const sent = (response.request().postDataJSON() as { ops: { id: string; type: string }[] }).ops;
    void response.json().then(
      (answer: { results: { id: string; status: string }[] }) => {
        for (const result of answer.results)
          seen.push({ id: result.id, status: result.status, type: sent.find((op) => op.id === result.id)?.type ?? '?' });
      },
      () => undefined,
    );
  });
  return seen;
}

test('a save, a theme and a name chosen offline each reach the server exactly once when the network returns', async ({ browser }) => {
  const admin = await device(browser, ADMIN, TABLET, '/admin');
  await approvedPosts(admin.page, ['Weighting in a tunnel']);
  // The phone with its service worker (every screen's code on the device, as offline in life).
  const phone = await signedInDevice(browser, spec.server, 'ines@example.com', PHONE, '/forum', 'allow');
  await waitForServiceWorker(phone.page);
  const tablet = await device(browser, 'ines@example.com', TABLET, '/profile');
  await expect(card(phone.page, 'Weighting in a tunnel')).toBeVisible();
  const pushed = pushedOps(phone.page);

  await phone.context.setOffline(true);
  const save = card(phone.page, 'Weighting in a tunnel').getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  // In the app (the phone is offline): its header menu, then Profile.
  await phone.page.getByRole('button', { name: 'Menu' }).click();
  await phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile', exact: true }).click();
  await chooseTheme(phone.page, 'Dark');
  await expect(drawnIn(phone.page)).toHaveAttribute('data-bs-theme', 'dark');
  await phone.page.getByRole('button', { name: 'Edit Profile' }).click();
  const dialog = phone.page.getByRole('dialog', { name: 'Edit Profile' });
  await dialog.getByLabel('Display name').fill('Ines Offline');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(phone.page.getByRole('heading', { name: 'Ines Offline' }).first()).toBeVisible();
  // Nothing left the phone: the tablet still shows the member as they were.
  await expect(drawnIn(tablet.page)).toHaveAttribute('data-bs-theme', 'light');

  await phone.context.setOffline(false);
  await waitSynced(phone.page);
  await expect(drawnIn(tablet.page)).toHaveAttribute('data-bs-theme', 'dark');
  await expect(tablet.page.getByRole('heading', { name: 'Ines Offline' }).first()).toBeVisible();
  const saved = tablet.page.locator('#saved-posts');
  await expect(saved.getByRole('link', { name: 'Weighting in a tunnel' })).toBeVisible();

  // Each was applied once, under one op id, even after the phone reloads and syncs again.
  await phone.page.reload();
  await waitSynced(phone.page);
  await expect(phone.page.getByRole('heading', { name: 'Ines Offline' }).first()).toBeVisible();
  const applied = pushed.filter((op) => op.status === 'applied');
  expect(applied.map((op) => op.type).sort()).toEqual(['rename', 'save', 'setTheme']);
  for (const type of ['save', 'setTheme', 'rename'])
    expect(new Set(pushed.filter((op) => op.type === type).map((op) => op.id)).size, type).toBe(1);
  for (const opened of [admin, phone, tablet]) await opened.context.close();
});
